import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { stageBlockVolume, unstageBlockVolume } from "../src/node.js";
import { useNode } from "./host.js";

const GiB = 1024 ** 3;
// The id the array reports in VPD page 0x83 (an NAA identifier); the disk group reads it as hex.
const naa = "6001405a1b2c3d4e5f60718293a4b5c6";
const usedNaa = "6001405f0e1d2c3b4a5968778695a4b3";

// A fresh LUN as a SAN policy leaves it (RAW, offline), next to a disk that already has data.
const node = useNode(() => ({
  disks: [
    {
      number: 1,
      busType: "SAS",
      lun: 0,
      size: 20 * GiB,
      page83: { naa: usedNaa },
      partitions: [{ fileSystem: "NTFS", label: "Other" }],
    },
    { number: 2, busType: "iSCSI", size: 8 * GiB, page83: { naa }, offline: true },
  ],
}));

const staging = () => join(node.kubelet, "plugins", "example.csi", "pv-1", "globalmount");
const commands = () => node.sim.calls().map((call) => call.command);

it("stages a fresh LUN: online, GPT, one NTFS volume mounted at the staging path", async () => {
  const { diskNumber, volumeId } = await stageBlockVolume(node.groups, {
    page83: naa,
    stagingPath: staging(),
    label: "pv-1",
  });
  expect(diskNumber).toBe(2);
  const state = node.sim.state();
  expect(state.disks.find((d) => d.number === 2)).toMatchObject({
    isOffline: false,
    partitionStyle: 2,
  });
  const data = state.partitions.find((p) => p.diskNumber === 2 && p.volume !== null)!;
  expect(volumeId).toBe(`\\\\?\\Volume{${data.volume}}\\`);
  expect(data.accessPaths).toEqual([`${staging()}/`]);
  expect(state.volumes.find((v) => v.guid === data.volume)).toMatchObject({
    fileSystem: "NTFS",
    label: "pv-1",
  });
  // What the pod writes lands on that volume.
  writeFileSync(join(staging(), "hello.txt"), "hi");
  expect(readFileSync(join(node.sim.volumeDir(data.volume!), "hello.txt"), "utf8")).toBe("hi");
});

it("stages again without partitioning, formatting or mounting twice (kubelet retries)", async () => {
  await stageBlockVolume(node.groups, { page83: naa, stagingPath: staging() });
  writeFileSync(join(staging(), "data.bin"), "keep me");
  await stageBlockVolume(node.groups, { page83: naa, stagingPath: staging() });
  const counts = (name: string) => commands().filter((c) => c === name).length;
  expect(counts("New-Partition")).toBe(1);
  expect(counts("Format-Volume")).toBe(1);
  expect(counts("Add-PartitionAccessPath")).toBe(1);
  expect(readFileSync(join(staging(), "data.bin"), "utf8")).toBe("keep me");
});

it("a retry of a completed stage only reads: no disk, partition or mount cmdlet runs", async () => {
  await stageBlockVolume(node.groups, { page83: naa, stagingPath: staging() });
  const before = commands().length;
  const again = await stageBlockVolume(node.groups, { page83: naa, stagingPath: staging() });
  expect(again.diskNumber).toBe(2);
  const retry = commands().slice(before);
  expect(retry.filter((c) => !/^(Get-|Update-HostStorageCache$)/.test(c))).toEqual([]);
});

it("refuses to stage over another disk's volume mounted at the staging path", async () => {
  await stageBlockVolume(node.groups, { page83: usedNaa, stagingPath: staging() });
  const before = commands().length;
  await expect(
    stageBlockVolume(node.groups, { page83: naa, stagingPath: staging() }),
  ).rejects.toMatchObject({ code: "FAILED_PRECONDITION" });
  expect(
    commands()
      .slice(before)
      .filter((c) => !c.startsWith("Get-") && c !== "Update-HostStorageCache"),
  ).toEqual([]);
});

it("never formats a volume that already has a file system", async () => {
  // Disk 1 was staged on another node before: GPT, NTFS, with the user's files on it.
  const before = node.sim.state().partitions.find((p) => p.diskNumber === 1 && p.volume !== null)!;
  writeFileSync(join(node.sim.volumeDir(before.volume!), "user.txt"), "precious");
  const { diskNumber } = await stageBlockVolume(node.groups, {
    page83: usedNaa,
    stagingPath: staging(),
  });
  expect(diskNumber).toBe(1);
  expect(commands()).not.toContain("Format-Volume");
  expect(commands()).not.toContain("New-Partition");
  expect(readFileSync(join(staging(), "user.txt"), "utf8")).toBe("precious");
});

it("fails with NOT_FOUND for a LUN the node does not see, and changes nothing", async () => {
  await expect(
    stageBlockVolume(node.groups, {
      page83: "60014050000000000000000000000000",
      stagingPath: staging(),
    }),
  ).rejects.toMatchObject({ code: "NOT_FOUND" });
  expect(commands()).not.toContain("Set-Disk");
  expect(existsSync(staging())).toBe(false);
});

it("recovers when PowerShell dies in the middle of a stage", async () => {
  node.sim.fault({ command: "Format-Volume", action: "kill" });
  await expect(
    stageBlockVolume(node.groups, { page83: naa, stagingPath: staging() }),
  ).rejects.toMatchObject({ code: "PROCESS_EXITED" });
  expect(node.sim.faults()[0]?.times).toBe(0);
  // kubelet's retry finishes the job: the disk is partitioned already, the volume not yet formatted.
  await stageBlockVolume(node.groups, { page83: naa, stagingPath: staging() });
  expect(commands().filter((c) => c === "New-Partition")).toHaveLength(1);
  const data = node.sim.state().partitions.find((p) => p.diskNumber === 2 && p.volume !== null)!;
  expect(data.accessPaths).toEqual([`${staging()}/`]);
});

it("unstages: unmounts, removes the folder, keeps the data on the volume; twice is fine", async () => {
  const { volumeId } = await stageBlockVolume(node.groups, { page83: naa, stagingPath: staging() });
  writeFileSync(join(staging(), "data.bin"), "still here");
  expect(await unstageBlockVolume(node.groups, { stagingPath: staging() })).toEqual({
    wasMounted: true,
  });
  expect(existsSync(staging())).toBe(false);
  const guid = /Volume\{([^}]+)\}/.exec(volumeId)![1]!;
  const data = node.sim.state().partitions.find((p) => p.volume === guid)!;
  expect(data.accessPaths).toEqual([]);
  expect(readFileSync(join(node.sim.volumeDir(guid), "data.bin"), "utf8")).toBe("still here");
  expect(await unstageBlockVolume(node.groups, { stagingPath: staging() })).toEqual({
    wasMounted: false,
  });
});
