import { describeWithPwsh } from "@csi-proxy/test-utils";
import { demoNodeWorld } from "@csi-proxy/winsim";
import { expect, it } from "vitest";
import { exitCodes, type DisksJson, type UnmapJson } from "../src/index.js";
import { runBin, type Spawned } from "./bin-harness.js";

// The built bin as an operator runs it: no stdin (as under CI), the repo's pwsh for --simulate.
function csiProxy(pwsh: string, ...argv: string[]): Promise<Spawned> {
  return runBin(argv, { CSI_WINSIM_PWSH: pwsh });
}

describeWithPwsh("the built csi-proxy bin with --simulate", (pwsh) => {
  it("--help and bad usage need no node", async () => {
    const help = await csiProxy(pwsh, "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Exit codes:");
    const bad = await csiProxy(pwsh, "--simulate", "disks", "show", "three");
    expect(bad.code).toBe(exitCodes.USAGE);
    expect(bad.stderr).toContain("csi-proxy: USAGE:");
  });

  it("disks list --json on the simulated node", async () => {
    const ran = await csiProxy(pwsh, "--simulate", "disks", "list", "--json");
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    const { disks } = JSON.parse(ran.stdout) as DisksJson;
    expect(disks.find((d) => d.page83 === "6001405a1b2c3d4e5f60718293a4b5c6")).toMatchObject({
      sizeBytes: String(demoNodeWorld.lunBytes),
    });
  });

  it("a disk that does not exist exits with NOT_FOUND's code", async () => {
    const ran = await csiProxy(pwsh, "--simulate", "disks", "show", "42");
    expect(ran.code).toBe(exitCodes.NOT_FOUND);
    expect(ran.stderr).toMatch(/^csi-proxy: NOT_FOUND: .*\n$/);
  });

  it("--verbose shows the node being staged with the CHAP secret and SMB password redacted", async () => {
    const ran = await csiProxy(pwsh, "--simulate", "--verbose", "smb", "list");
    expect(ran.code).toBe(0);
    expect(ran.stderr).toMatch(/^> iscsi\.connect #\d+ .*"ChapSecret": "\[REDACTED\]"/m);
    expect(ran.stderr).toMatch(/^> smb\.ensureMapping #\d+ .*"Password": "\[REDACTED\]"/m);
    const all = ran.stdout + ran.stderr;
    expect(all).not.toContain(demoNodeWorld.chap.secret);
    expect(all).not.toContain(JSON.stringify(demoNodeWorld.smbPassword).slice(1, -1));
    expect(all).not.toContain(demoNodeWorld.smbPassword);
  });

  it("a changing command without a terminal and without --yes refuses before starting anything", async () => {
    const ran = await csiProxy(pwsh, "--simulate", "smb", "unmap", demoNodeWorld.share);
    expect(ran.code).toBe(exitCodes.USAGE);
    expect(ran.stderr).toContain(
      `remove the SMB global mapping of the share holding ${demoNodeWorld.share}`,
    );
    expect(ran.stderr).toContain("pass --yes");
    expect(ran.stdout).toBe("");
  });

  it("smb unmap --yes removes the staged mapping", async () => {
    const ran = await csiProxy(
      pwsh,
      "--simulate",
      "--yes",
      "--json",
      "smb",
      "unmap",
      demoNodeWorld.share,
    );
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout) as UnmapJson).toEqual({
      remotePath: demoNodeWorld.share,
      removed: true,
    });
  });
});
