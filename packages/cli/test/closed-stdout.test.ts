import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

// `csi-proxy --help | head -1`: the reader closes the pipe before the help is written out.
it("a reader that closes stdout early is not a crash: no stack trace, exit 0", async () => {
  for (let attempt = 0; attempt < 5; attempt++) {
    const child = spawn(process.execPath, [bin, "--help"], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  }
});
