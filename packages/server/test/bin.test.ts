import { execFile } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { describe, expect, it } from "vitest";
import { serverVersion } from "../src/version.js";
import { startBin } from "./harness.js";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...argv], (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
    });
  });
}

describe("the bin without a node", () => {
  it("--help prints the usage", async () => {
    const ran = await run("--help");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("--socket-dir DIR");
  });

  it("--version prints the package's version alone", async () => {
    const manifest = JSON.parse(
      readFileSync(new URL("../package.json", import.meta.url), "utf8"),
    ) as { version: string };
    const ran = await run("--version");
    expect(ran).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: "" });
    expect(serverVersion).toBe(manifest.version);
  });

  it("bad usage exits 2 with the reason", async () => {
    const ran = await run("--socket-dir", "/tmp/x", "--policy", "p", "--socket-mode", "0777");
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("--socket-mode is 0600 or 0660");
  });

  it("on Linux without --simulate there is nothing to serve: exits 1 and binds nothing", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "csi-srv-")), "s");
    const ran = await run("--socket-dir", dir, "--policy", "v1-compatible");
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain("UNSUPPORTED: There is no Windows storage stack");
    expect(existsSync(dir)).toBe(false);
  });
});

describeWithPwsh("the bin's sockets", (pwsh) => {
  it("0660 on request; a stale socket is replaced, a live one or a file is refused", async () => {
    const first = await startBin(pwsh, [
      "--simulate",
      "--policy",
      "v1-compatible",
      "--socket-mode",
      "0660",
    ]);
    try {
      expect(first.ready.version).toBe(serverVersion);
      for (const path of Object.values(first.ready.endpoints)) {
        expect(statSync(path).mode & 0o777).toBe(0o660);
      }
      const again = await run(
        "--simulate",
        "--policy",
        "v1-compatible",
        "--socket-dir",
        first.socketDir,
      );
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("Another server is listening on");
      expect(readdirSync(first.socketDir)).toHaveLength(Object.keys(first.ready.endpoints).length);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    // A socket nobody answers on (a server that was killed) is cleared.
    const dir = first.socketDir;
    const stale = createServer();
    await new Promise<void>((resolve) => stale.listen(join(dir, "csi-proxy-disk-v1"), resolve));
    await new Promise((resolve) => stale.close(resolve));
    const second = await startBin(pwsh, ["--simulate", "--policy", "v1-compatible"]);
    await second.stop();
    writeFileSync(join(dir, "csi-proxy-disk-v1"), "not a socket");
    const refused = await run("--simulate", "--policy", "v1-compatible", "--socket-dir", dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("exists and is not a socket");
  });

  it("refuses to serve in a folder others may write, or through a link, and binds nothing", async () => {
    const open = join(mkdtempSync(join(tmpdir(), "csi-srv-")), "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    const link = join(mkdtempSync(join(tmpdir(), "csi-srv-")), "link");
    const target = join(mkdtempSync(join(tmpdir(), "csi-srv-")), "target");
    mkdirSync(target, { mode: 0o700 });
    symlinkSync(target, link);
    for (const [dir, reason] of [
      [open, "is writable by every local user (mode 0777)"],
      [link, "is a link"],
    ] as const) {
      const ran = await run("--simulate", "--policy", "v1-compatible", "--socket-dir", dir);
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain("FAILED_PRECONDITION: Not serving in this socket folder");
      expect(ran.stderr).toContain(reason);
    }
    // The host afterwards: nothing bound in either folder, and the open one is still 0777.
    expect(readdirSync(open)).toEqual([]);
    expect(statSync(open).mode & 0o777).toBe(0o777);
    expect(readdirSync(target)).toEqual([]);
  });
});
