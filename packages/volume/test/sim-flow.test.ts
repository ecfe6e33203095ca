import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import type { Simulator } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Volume } from "../src/index.js";
import {
  codeOf,
  dataDiskScenario,
  gib,
  sizeIsAround,
  startSimulator,
  systemVolumeId,
  volumeIdOf,
} from "./sim-helpers.js";

// Upstream's volumeInit + MountVolume flow + GetClosestVolume scenarios, in order, on one host.
describeWithPwsh("upstream volume flow on the simulator (session)", (pwsh) => {
  let sim: Simulator;
  let shell: PowerShell;
  let volume: Volume;
  let volumeId: string;
  let mountDir: string;

  beforeAll(async () => {
    ({ sim, shell, volume } = await startSimulator(pwsh, dataDiskScenario()));
    volumeId = volumeIdOf(sim, 1);
    mountDir = join(sim.root, "testplugin.csi.io", "mount-1");
    mkdirSync(mountDir, { recursive: true });
  });

  afterAll(async () => {
    await shell.close();
    await sim.dispose();
  });

  it("volumeInit: exactly one volume, unformatted, then formatted", async () => {
    expect(await volume.listVolumesOnDisk({ diskNumber: 1 })).toEqual({ volumeIds: [volumeId] });
    expect(await volume.isVolumeFormatted({ volumeId })).toEqual({ formatted: false });
    expect(await volume.formatVolume({ volumeId })).toEqual({});
    expect(await volume.isVolumeFormatted({ volumeId })).toEqual({ formatted: true });
    expect(sim.state().volumes.find((v) => volumeId.includes(v.guid))?.fileSystem).toBe("NTFS");
  });

  it("lists per partition: the data partition has the volume, the MSR none", async () => {
    expect(await volume.listVolumesOnDisk({ diskNumber: 1, partitionNumber: 2 })).toEqual({
      volumeIds: [volumeId],
    });
    expect(await volume.listVolumesOnDisk({ diskNumber: 1, partitionNumber: 1 })).toEqual({
      volumeIds: [],
    });
  });

  it("stats ≈ 1 GiB; after the disk grows to 2 GiB, resize to 1.5× and stats follow", async () => {
    const before = await volume.getVolumeStats({ volumeId });
    expect(sizeIsAround(before.totalBytes, gib)).toBe(true);
    sim.update((state) => {
      const disk = state.disks.find((d) => d.number === 1);
      if (disk) disk.size = 2 * gib;
    });
    const target = Math.floor(Number(before.totalBytes) * 1.5);
    expect(await volume.resizeVolume({ volumeId, sizeBytes: target })).toEqual({ resized: true });
    const after = await volume.getVolumeStats({ volumeId });
    expect(sizeIsAround(after.totalBytes, target)).toBe(true);
  });

  it("resize skips shrink and small growth without calling Resize-Partition", async () => {
    const { totalBytes } = await volume.getVolumeStats({ volumeId });
    sim.clearCalls();
    expect(await volume.resizeVolume({ volumeId, sizeBytes: 100 * 1024 * 1024 })).toEqual({
      resized: false,
    });
    expect(
      await volume.resizeVolume({ volumeId, sizeBytes: Number(totalBytes) + 50 * 1024 * 1024 }),
    ).toEqual({ resized: false });
    expect(sim.calls().filter((c) => c.command === "Resize-Partition")).toEqual([]);
  });

  it("resize to 0 grows to the maximum supported size", async () => {
    expect(await volume.resizeVolume({ volumeId, sizeBytes: 0 })).toEqual({ resized: true });
    const partition = sim.state().partitions.find((p) => p.diskNumber === 1 && p.volume !== null);
    const { totalBytes } = await volume.getVolumeStats({ volumeId });
    expect(sizeIsAround(totalBytes, 2 * gib)).toBe(true);
    expect(partition?.size).toBeGreaterThan(2 * gib - 20 * 1024 * 1024);
  });

  it("GetDiskNumberFromVolumeID gives disk 1", async () => {
    expect(await volume.getDiskNumberFromVolumeId({ volumeId })).toEqual({ diskNumber: 1 });
  });

  it("listVolumeDisks gives every volume's disk in one Get-Partition, as getDiskNumberFromVolumeId does", async () => {
    sim.clearCalls();
    const { volumes } = await volume.listVolumeDisks();
    expect(sim.calls().map((c) => c.command)).toEqual(["Get-Partition"]);
    expect(volumes).toContainEqual({ volumeId: systemVolumeId(sim), diskNumbers: [0] });
    expect(volumes).toContainEqual({ volumeId, diskNumbers: [1] });
    // The EFI partition's volume too: every volume of the state, each as Get-Volume knows it.
    expect(volumes).toHaveLength(sim.state().volumes.length);
    for (const v of volumes) {
      expect(await volume.getDiskNumberFromVolumeId({ volumeId: v.volumeId })).toEqual({
        diskNumber: v.diskNumbers[0],
      });
    }
  });

  it("DriveLetterVolume: an unmounted folder resolves to the system volume", async () => {
    const plain = join(sim.root, "plain", "dir");
    mkdirSync(plain, { recursive: true });
    expect(await volume.getClosestVolumeIdFromTargetPath({ targetPath: plain })).toEqual({
      volumeId: systemVolumeId(sim),
    });
  });

  it("mounts, idempotently; the mount resolves to the volume and writes land in it", async () => {
    expect(await volume.mountVolume({ volumeId, targetPath: mountDir })).toEqual({
      alreadyMounted: false,
    });
    expect(await volume.mountVolume({ volumeId, targetPath: mountDir })).toEqual({
      alreadyMounted: true,
    });
    expect(await volume.mountVolume({ volumeId, targetPath: `${mountDir}/` })).toEqual({
      alreadyMounted: true,
    });
    expect(await volume.getVolumeIdFromTargetPath({ targetPath: mountDir })).toEqual({ volumeId });
    const before = await volume.getVolumeStats({ volumeId });
    writeFileSync(join(mountDir, "data.bin"), Buffer.alloc(3 * 1024 * 1024, 7));
    const guid = /Volume\{[\w-]*\}/.exec(volumeId)?.[0] ?? "";
    expect(existsSync(join(sim.dir, "volumes", guid, "data.bin"))).toBe(true);
    const after = await volume.getVolumeStats({ volumeId });
    expect(Number(after.usedBytes) - Number(before.usedBytes)).toBeGreaterThanOrEqual(
      3 * 1024 * 1024,
    );
  });

  it("AncestorVolumeFromNestedDirectory: mount/foo/bar resolves to the mounted volume", async () => {
    const nested = join(mountDir, "foo", "bar");
    mkdirSync(nested, { recursive: true });
    expect(await volume.getClosestVolumeIdFromTargetPath({ targetPath: nested })).toEqual({
      volumeId,
    });
  });

  it("SymlinkToVolume: a link to the mount folder resolves to the mounted volume", async () => {
    const link = join(sim.root, "pod-link");
    symlinkSync(mountDir, link);
    expect(await volume.getClosestVolumeIdFromTargetPath({ targetPath: link })).toEqual({
      volumeId,
    });
    expect(await volume.getVolumeIdFromTargetPath({ targetPath: link })).toEqual({ volumeId });
  });

  it("flushes, then unmounts; a repeat is a no-op; the folder stays, empty", async () => {
    sim.clearCalls();
    expect(await volume.unmountVolume({ volumeId, targetPath: mountDir })).toEqual({
      wasMounted: true,
    });
    const commands = sim.calls().map((c) => c.command);
    expect(commands.indexOf("Write-VolumeCache")).toBeGreaterThanOrEqual(0);
    expect(commands.indexOf("Write-VolumeCache")).toBeLessThan(
      commands.indexOf("Remove-PartitionAccessPath"),
    );
    expect(await volume.unmountVolume({ volumeId, targetPath: mountDir })).toEqual({
      wasMounted: false,
    });
    expect(readdirSync(mountDir)).toEqual([]);
    expect(await codeOf(volume.getVolumeIdFromTargetPath({ targetPath: mountDir }))).toBe(
      "NOT_FOUND",
    );
  });

  it("writeVolumeCache flushes the volume", async () => {
    sim.clearCalls();
    expect(await volume.writeVolumeCache({ volumeId })).toEqual({});
    expect(sim.calls().some((c) => c.command === "Write-VolumeCache")).toBe(true);
  });
});
