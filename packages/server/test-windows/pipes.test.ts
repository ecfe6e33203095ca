// The server on real Windows: named pipes with upstream's names, a DACL of SYSTEM and
// Administrators only, a v1 client over a pipe, and a local user who is not an administrator
// refused at the pipe. Run by .github/workflows/windows.yml (server-pipes job, an elevated
// runner) with `pnpm -C packages/server exec vitest run --config vitest.windows.config.ts`;
// never collected on Linux (vitest.config.ts includes test/ only).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servedApis } from "../src/endpoints.js";
import { startBin, type Ready, type RunningBin } from "../test/harness.js";

const probeScript = fileURLToPath(
  new URL("../../../tools/conformance/windows/pipe-probe.ps1", import.meta.url),
);
const PERMISSION_DENIED = 7;

// Windows PowerShell, as the fixture scripts run; the output is one line.
function powershell(...args: string[]): string {
  return execFileSync("powershell.exe", ["-NoLogo", "-NoProfile", "-NonInteractive", ...args], {
    encoding: "utf8",
  }).trim();
}

/** The SIDs (as SDDL aliases or S-1-… strings) the DACL of an SDDL string grants anything to. */
function daclTrustees(sddl: string): string[] {
  const dacl = /D:[^(]*((?:\([^)]*\))*)/.exec(sddl)?.[1] ?? "";
  return [...dacl.matchAll(/\(([^)]*)\)/g)].map((ace) => {
    const fields = (ace[1] ?? "").split(";");
    return `${fields[0]}:${fields[5] ?? ""}`;
  });
}

describe("csi-proxy-server on Windows named pipes", () => {
  let bin: RunningBin;
  let ready: Ready;
  const client = (endpoint: string) => bin.client(endpoint);

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "csi-srv-win-"));
    const policy = join(dir, "policy.json");
    const rule = {
      name: "conformance",
      callers: [{ local: true }],
      methods: ["system.GetBIOSSerialNumber", "filesystem.PathExists", "disk.ListDiskLocations"],
      paths: ["C:\\var\\lib\\kubelet"],
    };
    writeFileSync(policy, JSON.stringify({ version: 1, rules: [rule] }));
    // No pwsh: the real node, on named pipes (no --socket-dir).
    bin = await startBin(undefined, ["--policy", policy, "--audit-log", join(dir, "audit.jsonl")]);
    ready = bin.ready;
  }, 120_000);

  afterAll(async () => {
    await bin.stop();
  });

  it("serves every group-version on a pipe named as upstream's", () => {
    const pipes = new Set(readdirSync("\\\\.\\pipe\\").map((name) => name.toLowerCase()));
    for (const api of servedApis) {
      expect(ready.endpoints[`${api.group}-${api.version}`]).toBe(`\\\\.\\pipe\\${api.endpoint}`);
      expect(pipes.has(api.endpoint)).toBe(true);
    }
  });

  it("each pipe's DACL grants SYSTEM and Administrators only, never Everyone or Anonymous", () => {
    for (const api of servedApis) {
      const sddl = powershell(
        "-Command",
        `(Get-Acl -LiteralPath '\\\\.\\pipe\\${api.endpoint}').Sddl`,
      );
      const trustees = daclTrustees(sddl);
      expect(trustees.length, sddl).toBeGreaterThan(0);
      for (const trustee of trustees) expect(["A:SY", "A:BA"], sddl).toContain(trustee);
    }
  });

  it("a v1 client calls over the pipe; a method the policy does not grant runs nothing", async () => {
    const system = client("system-v1alpha1");
    const serial = await system.call("GetBIOSSerialNumber", {});
    expect(serial.code, serial.details).toBe(0);
    const exists = await client("filesystem-v1").call("PathExists", {
      path: "C:\\var\\lib\\kubelet",
    });
    expect(exists.code, exists.details).toBe(0);
    const stop = await system.call("StopService", { name: "MSiSCSI" });
    expect(stop.code).toBe(PERMISSION_DENIED);
  });

  it("a local user who is not an administrator is refused when opening the pipe", () => {
    const said = powershell(
      "-ExecutionPolicy",
      "Bypass",
      "-File",
      probeScript,
      "-PipeName",
      "csi-proxy-system-v1alpha1",
      "-Node",
      process.execPath,
      "-WorkDir",
      "C:\\Users\\Public",
    );
    const result = JSON.parse(said.split("\n").at(-1) ?? "{}") as {
      outcome?: string;
      detail?: string;
    };
    expect(result, said).toMatchObject({ outcome: "refused" });
  });
});
