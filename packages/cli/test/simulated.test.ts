import type { PowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Simulator, createSimulatedPowerShell, demoNodeWorld, scenarios } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  exitCodes,
  type CliGroups,
  type DisksJson,
  type PortalsJson,
  type ServicesJson,
  type SmbJson,
  type TargetsJson,
  type VolumesJson,
} from "../src/index.js";
import { simulatorGroups, stageDemoNode, stagingPath } from "../src/simulate.js";
import { fixedGroups, runIn, type Ran } from "./harness.js";

// In-process, against the staged demo node; the changing commands run last and are checked in
// the simulator's own state.
describeWithPwsh("csi-proxy on the simulated demo node", (pwsh) => {
  let sim: Simulator;
  let shell: PowerShell;
  let groups: Omit<CliGroups, "close">;

  beforeAll(async () => {
    sim = await Simulator.create(scenarios.demoNode());
    shell = await createSimulatedPowerShell(sim, { pwsh: { path: pwsh } });
    groups = simulatorGroups(sim, shell);
    await stageDemoNode(sim, groups);
  });
  afterAll(async () => {
    await shell.close();
    await sim.dispose();
  });

  const run = (...argv: string[]): Promise<Ran> => runIn(argv, { groups: fixedGroups(groups) });
  const json = async <T>(...argv: string[]): Promise<T> => {
    const ran = await run(...argv, "--json");
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    return JSON.parse(ran.stdout) as T;
  };

  it("disks list: every disk with its ids, location, size (a string) and state", async () => {
    const { disks, idErrors } = await json<DisksJson>("disks", "list");
    expect(idErrors).toEqual([]);
    expect(disks.map((d) => d.number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(disks[4]).toMatchObject({
      page83: "60022480495f67cbc95fd232e88561a7",
      sizeBytes: String(10 * 1024 ** 3),
      online: true,
      location: { lunId: "3" },
      problem: null,
    });
    expect(disks[5]).toMatchObject({ online: false, location: null });
    const table = await run("disks", "list");
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/│ 4 +│ 10\.0 GiB +│ yes +│ 60022480495f67cbc95fd232e88561a7 /);
    expect(table.stdout).toMatch(/│ 5 +│ 16\.0 GiB +│ no /);
  });

  it("disks show: one disk, and NOT_FOUND's exit code for a disk that does not exist", async () => {
    const { disk } = await json<{ disk: DisksJson["disks"][number] }>("disks", "show", "2");
    expect(disk).toMatchObject({ number: 2, sizeBytes: String(50 * 1024 ** 3), online: true });
    const missing = await run("disks", "show", "42");
    expect(missing.code).toBe(exitCodes.NOT_FOUND);
    expect(missing.stderr).toMatch(/^csi-proxy: NOT_FOUND: .*42.*\n$/);
    expect(missing.stdout).toBe("");
  });

  it("volumes list: ids per disk with size, used and free as strings; target finds the staged mount", async () => {
    const { volumes } = await json<VolumesJson>("volumes", "list", "1", "2");
    expect(volumes.map((v) => v.diskNumber)).toEqual([1, 2]);
    for (const v of volumes) {
      expect(v.volumeId).toMatch(/^\\\\\?\\Volume\{[0-9a-f-]{36}\}\\$/);
      expect(BigInt(v.totalBytes ?? "x")).toBe(
        BigInt(v.usedBytes ?? "x") + BigInt(v.freeBytes ?? "x"),
      );
      expect(v).toMatchObject({ formatted: true, problem: null });
    }
    const target = await json<{ volumeId: string }>("volumes", "target", stagingPath(sim));
    expect(target.volumeId).toBe(volumes[0]?.volumeId);
    // Issue #16 §5: where each volume is mounted (the staged one at its staging path).
    expect(volumes[0]?.mountPoints).toEqual([`${stagingPath(sim)}/`]);
    const table = await run("volumes", "list", "1");
    expect(table.stdout).toContain(volumes[0]?.volumeId);
    expect(table.stdout).toContain("Mounted at");
    expect(table.stdout).toMatch(/│ 20\.0 GiB /);
  });

  it("smb list: the share mapped with its status", async () => {
    const { mappings } = await json<SmbJson>("smb", "list");
    expect(mappings).toEqual([
      { remotePath: demoNodeWorld.share, localPath: null, status: "OK", statusCode: 0 },
    ]);
    expect((await run("smb", "list")).stdout).toContain(
      `│ ${demoNodeWorld.share} │ -          │ OK (0) │`,
    );
  });

  it("iscsi portals and targets: the registered portal, its target and the LUN's disk", async () => {
    const { portals } = await json<PortalsJson>("iscsi", "portals");
    expect(portals).toEqual([demoNodeWorld.portal]);
    const { targets, portalProblems } = await json<TargetsJson>("iscsi", "targets");
    expect(portalProblems).toEqual([]);
    expect(targets).toEqual([
      { portal: demoNodeWorld.portal, iqn: demoNodeWorld.iqn, diskNumbers: [7] },
    ]);
    expect((await run("iscsi", "targets")).stdout).toMatch(
      /│ 10\.20\.0\.5:3260 │ iqn\.2003-01\S+ │ 7 +│/,
    );
  });

  it("services: state and start type, and the BIOS serial trimmed", async () => {
    const data = await json<ServicesJson>("services", "MSiSCSI");
    expect(data.biosSerialNumber).toBe(demoNodeWorld.biosSerial);
    expect(data.services).toEqual([
      expect.objectContaining({ name: "MSiSCSI", statusName: "RUNNING", startTypeName: "MANUAL" }),
    ]);
    const missing = await run("services", "NoSuchService");
    expect(missing.code).toBe(exitCodes.NOT_FOUND);
  });

  it("--verbose shows each script and its parameters on stderr", async () => {
    const ran = await run("--verbose", "volumes", "list", "2");
    expect(ran.code).toBe(0);
    expect(ran.stderr).toMatch(
      /^> volume\.listVolumeIds #\d+ \{ "DiskNumber": 2, "PartitionNumber": 0 \}$/m,
    );
    expect(ran.stderr).toMatch(/^< volume\.listVolumeIds #\d+ ok, 1 object\(s\), \d+ ms$/m);
    expect(ran.stdout).not.toContain("volume.listVolumeIds");
  });

  it("volumes unmount --yes removes the mount from the simulated host", async () => {
    const [volumeId] = (await groups.volume.listVolumesOnDisk({ diskNumber: 1 })).volumeIds;
    const mountedAt = () => sim.state().partitions.flatMap((p) => p.accessPaths);
    expect(mountedAt().some((p) => p.startsWith(stagingPath(sim)))).toBe(true);
    const ran = await run(
      "volumes",
      "unmount",
      volumeId ?? "",
      stagingPath(sim),
      "--yes",
      "--json",
    );
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({
      volumeId,
      targetPath: stagingPath(sim),
      wasMounted: true,
    });
    expect(ran.stderr).toContain(`unmount volume ${volumeId ?? ""} from ${stagingPath(sim)}`);
    expect(mountedAt().some((p) => p.startsWith(stagingPath(sim)))).toBe(false);
  });

  it("smb unmap --yes removes the global mapping from the simulated host", async () => {
    expect(sim.state().smb?.mappings).toHaveLength(1);
    const ran = await run("smb", "unmap", demoNodeWorld.shareSubPath, "--yes");
    expect(ran).toMatchObject({
      code: 0,
      stdout: `Removed the mapping of ${demoNodeWorld.shareSubPath}.\n`,
    });
    expect(sim.state().smb?.mappings).toEqual([]);
  });

  it("iscsi logout --yes ends the session on the simulated host", async () => {
    expect(sim.state().iscsi?.sessions).toHaveLength(1);
    const { targetAddress, targetPort } = demoNodeWorld.portal;
    const ran = await run(
      "iscsi",
      "logout",
      `${targetAddress}:${targetPort}`,
      demoNodeWorld.iqn,
      "-y",
    );
    expect(ran.code).toBe(0);
    expect(sim.state().iscsi?.sessions).toEqual([]);
    const { targets } = await json<TargetsJson>("iscsi", "targets");
    expect(targets[0]?.diskNumbers).toEqual([]);
  });
});
