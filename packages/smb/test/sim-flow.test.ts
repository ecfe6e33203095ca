import { lstatSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  setSmbMappingStatus,
  setSmbPassword,
  smbPasswordHash,
  uncToLocal,
} from "@csi-proxy/winsim";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { beforeEach, expect, it } from "vitest";
import { alice, useSmbSim } from "./sim-setup.js";

describeWithPwsh("Smb on the simulated host (session mode)", (pwsh) => {
  const h = useSmbSim(pwsh, "session");
  beforeEach(() => h().reset());

  it("maps a share with credentials and links localPath; a file written through the link lands in the share", async () => {
    const { sim, smb } = h();
    const remotePath = h().shareFolder("\\\\FS1\\Data\\pv-1");
    const localPath = h().local("pv-1/globalmount");
    expect(await smb.newSmbGlobalMapping({ remotePath, localPath, ...alice })).toEqual({
      mapping: "created",
      link: "created",
    });
    writeFileSync(join(localPath, "written.txt"), "through the link");
    const backing = join(uncToLocal(sim, "\\\\fs1\\data\\pv-1"), "written.txt");
    expect(readFileSync(backing, "utf8")).toBe("through the link");
    expect(h().commands()).toEqual(["Get-SmbGlobalMapping", "New-SmbGlobalMapping"]);
    expect(sim.state().smb?.mappings).toEqual([
      expect.objectContaining({
        remotePath: "\\\\fs1\\data",
        localPath: "",
        status: 0,
        user: alice.username,
        passwordSha256: smbPasswordHash(alice.password),
        requirePrivacy: true,
      }),
    ]);
  });

  it("reuses a working mapping on a repeat, with one listing and one Test-Path", async () => {
    const { smb } = h();
    const request = {
      remotePath: h().shareFolder("\\\\fs1\\data\\pv-1"),
      localPath: h().local("pv-1"),
      ...alice,
    };
    await smb.newSmbGlobalMapping(request);
    h().sim.clearCalls();
    expect(await smb.newSmbGlobalMapping(request)).toEqual({ mapping: "reused", link: "existing" });
    expect(h().commands()).toEqual(["Get-SmbGlobalMapping", "Test-Path"]);
  });

  it("reuses the share root's mapping for another folder of the share", async () => {
    const { sim, smb } = h();
    const first = h().shareFolder("\\\\fs1\\data\\pv-1");
    const second = h().shareFolder("//FS1/data/pv-2/");
    await smb.newSmbGlobalMapping({ remotePath: first, localPath: h().local("a"), ...alice });
    writeFileSync(join(uncToLocal(sim, "\\\\fs1\\data\\pv-2"), "seen.txt"), "2");
    const result = await smb.newSmbGlobalMapping({
      remotePath: second,
      localPath: h().local("b"),
      ...alice,
    });
    expect(result).toEqual({ mapping: "reused", link: "created" });
    expect(readFileSync(join(h().local("b"), "seen.txt"), "utf8")).toBe("2");
    expect(sim.state().smb?.mappings).toHaveLength(1);
  });

  it("repairs a mapping that went stale after a password change (Status still OK)", async () => {
    const { sim, smb } = h();
    const remotePath = h().shareFolder("\\\\fs1\\data\\pv-1");
    await smb.newSmbGlobalMapping({ remotePath, ...alice });
    setSmbPassword(sim, "fs1", alice.username, "rotated-Secret-3");
    expect((await smb.listSmbGlobalMappings()).mappings[0]?.status).toBe("OK");
    sim.clearCalls();
    const result = await smb.newSmbGlobalMapping({
      remotePath,
      username: alice.username,
      password: "rotated-Secret-3",
    });
    expect(result).toEqual({ mapping: "recreated", link: "none" });
    expect(h().commands()).toEqual([
      "Get-SmbGlobalMapping",
      "Test-Path",
      "Remove-SmbGlobalMapping",
      "New-SmbGlobalMapping",
    ]);
    expect(sim.state().smb?.mappings[0]?.passwordSha256).toBe(smbPasswordHash("rotated-Secret-3"));
  });

  it("replaces a mapping whose status is not OK without testing its path", async () => {
    const { sim, smb } = h();
    const remotePath = h().shareFolder("\\\\fs1\\data");
    await smb.newSmbGlobalMapping({ remotePath, ...alice });
    setSmbMappingStatus(sim, "\\\\fs1\\data", "Disconnected");
    sim.clearCalls();
    expect((await smb.newSmbGlobalMapping({ remotePath, ...alice })).mapping).toBe("recreated");
    expect(h().commands()).not.toContain("Test-Path");
    expect(sim.state().smb?.mappings.map((m) => m.status)).toEqual([0]);
  });

  it("records requirePrivacy true by default and false when asked", async () => {
    const { sim, smb } = h();
    await smb.newSmbGlobalMapping({ remotePath: h().shareFolder("\\\\fs1\\data"), ...alice });
    await smb.newSmbGlobalMapping({
      remotePath: h().shareFolder("\\\\fs1\\logs"),
      ...alice,
      requirePrivacy: false,
    });
    expect(sim.state().smb?.mappings.map((m) => [m.remotePath, m.requirePrivacy])).toEqual([
      ["\\\\fs1\\data", true],
      ["\\\\fs1\\logs", false],
    ]);
    const logged = h()
      .calls()
      .filter((c) => c.command === "New-SmbGlobalMapping")
      .map((c) => c.parameters.RequirePrivacy);
    expect(logged).toEqual([true, false]);
  });

  it("lists every mapping with its status name and code", async () => {
    const { sim, smb } = h();
    expect(await smb.listSmbGlobalMappings()).toEqual({ mappings: [] });
    await smb.newSmbGlobalMapping({ remotePath: h().shareFolder("\\\\fs1\\data"), ...alice });
    await smb.newSmbGlobalMapping({ remotePath: h().shareFolder("\\\\fs1\\logs"), ...alice });
    setSmbMappingStatus(sim, "\\\\fs1\\logs", "Unavailable");
    expect(await smb.listSmbGlobalMappings()).toEqual({
      mappings: [
        { remotePath: "\\\\fs1\\data", status: "OK", statusCode: 0 },
        { remotePath: "\\\\fs1\\logs", status: "Unavailable", statusCode: 6 },
      ],
    });
  });

  it("removes a mapping and leaves the link; removing again is fine", async () => {
    const { sim, smb } = h();
    const remotePath = h().shareFolder("\\\\fs1\\data\\pv-1");
    const localPath = h().local("pv-1");
    await smb.newSmbGlobalMapping({ remotePath, localPath, ...alice });
    sim.clearCalls();
    expect(await smb.removeSmbGlobalMapping({ remotePath: "\\\\FS1\\Data\\" })).toEqual({
      removed: true,
    });
    expect(await smb.removeSmbGlobalMapping({ remotePath })).toEqual({ removed: false });
    expect(h().commands()).toEqual([
      "Get-SmbGlobalMapping",
      "Remove-SmbGlobalMapping",
      "Get-SmbGlobalMapping",
    ]);
    expect(sim.state().smb?.mappings).toEqual([]);
    expect(lstatSync(localPath).isSymbolicLink()).toBe(true);
  });
});
