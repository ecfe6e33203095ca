import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { NodeGroups } from "./node.js";
import type { KubeletPaths } from "./paths.js";
import type { StepRunner } from "./steps.js";
import { world } from "./world.js";

/** What only the simulated host can do: play the storage array's part. */
export interface ArrayControls {
  /** The array grows the LUN behind a disk (an online volume expansion). */
  growLun(diskNumber: number, bytes: number): void;
  /** The share's backing folder, to show where a file written through the pod path landed. */
  shareFolder(): string;
}

interface Staged {
  diskNumber: number;
  volumeId: string;
}

const gib = (bytes: number | bigint) => `${(Number(bytes) / 1024 ** 3).toFixed(2)} GiB`;
const mib = (bytes: number | bigint) => `${(Number(bytes) / 1024 ** 2).toFixed(1)} MiB`;

/** Stages and publishes an iSCSI block volume and an SMB share, then tears both down. */
export async function runLifecycle(
  groups: NodeGroups,
  paths: KubeletPaths,
  run: StepRunner,
  array: ArrayControls,
): Promise<void> {
  const { system, iscsi, disk, volume, filesystem, smb } = groups;
  const { portal, iqn, chap } = world;
  const staged: Staged = { diskNumber: -1, volumeId: "" };

  await run.step("system: BIOS serial number (the node's identity)", async () => {
    const { serialNumber } = await system.getBiosSerialNumber();
    return JSON.stringify(serialNumber);
  });
  await run.step("system: make sure the iSCSI initiator service runs", async () => {
    const before = await system.getService({ name: "MSiSCSI" });
    await system.startService({ name: "MSiSCSI" });
    const after = await system.getService({ name: "MSiSCSI" });
    return `MSiSCSI ${before.statusName} -> ${after.statusName} (${after.startTypeName})`;
  });

  await run.step("iscsi: add the array's portal", async () => {
    await iscsi.addTargetPortal({ targetPortal: portal });
    return `${portal.targetAddress}:${portal.targetPort}`;
  });
  await run.step("iscsi: discover targets", async () => {
    const { iqns } = await iscsi.discoverTargetPortal({ targetPortal: portal });
    return iqns.join(", ");
  });
  await run.step("iscsi: log in with one-way CHAP", async () => {
    await iscsi.connectTarget({
      targetPortal: portal,
      iqn,
      authType: "ONE_WAY_CHAP",
      chapUsername: chap.username,
      chapSecret: chap.secret,
    });
    await iscsi.connectTarget({
      targetPortal: portal,
      iqn,
      authType: "ONE_WAY_CHAP",
      chapUsername: chap.username,
      chapSecret: chap.secret,
    });
    return `connected to ${iqn} (second call was a no-op)`;
  });
  await run.step("iscsi: find the target's disk", async () => {
    const { diskIds } = await iscsi.getTargetDisks({ targetPortal: portal, iqn });
    const [first] = diskIds;
    if (first === undefined) throw new Error("the target exposes no disk");
    staged.diskNumber = first;
    return `disk ${first}`;
  });

  await run.step("disk: rescan", async () => {
    await disk.rescan();
    return "storage cache updated";
  });
  let page83 = "";
  await run.step("disk: list IDs and locations", async () => {
    const { diskIds, errors } = await disk.listDiskIds();
    const { diskLocations } = await disk.listDiskLocations();
    page83 = diskIds.get(staged.diskNumber)?.page83 ?? "";
    return `${diskIds.size} disks with IDs (${errors.length} unreadable), ${diskLocations.size} with SCSI locations; ours has page83 ${page83}`;
  });
  await run.step("disk: find the disk by its page 83 ID", async () => {
    const { diskNumber } = await disk.getDiskNumberByPage83({ page83 });
    if (diskNumber !== staged.diskNumber) throw new Error(`page 83 led to disk ${diskNumber}`);
    return `disk ${diskNumber}`;
  });
  await run.step("disk: bring it online (and writable)", async () => {
    const before = await disk.getDiskState({ diskNumber: staged.diskNumber });
    // A fresh LUN may arrive offline and read-only (SAN policy); the demo writes to it.
    await disk.setDiskState({ diskNumber: staged.diskNumber, isOnline: true, clearReadOnly: true });
    return `online: ${before.isOnline} -> true`;
  });
  await run.step("disk: partition it (GPT, one data partition)", async () => {
    await disk.partitionDisk({ diskNumber: staged.diskNumber });
    await disk.partitionDisk({ diskNumber: staged.diskNumber });
    const { totalBytes } = await disk.getDiskStats({ diskNumber: staged.diskNumber });
    return `${gib(totalBytes)} disk partitioned (second call was a no-op)`;
  });

  await run.step("volume: find the disk's volume", async () => {
    const { volumeIds } = await volume.listVolumesOnDisk({ diskNumber: staged.diskNumber });
    const [id] = volumeIds;
    if (id === undefined) throw new Error("no volume on the disk");
    staged.volumeId = id;
    return id;
  });
  await run.step("volume: format it if needed (NTFS)", async () => {
    const { formatted } = await volume.isVolumeFormatted({ volumeId: staged.volumeId });
    if (!formatted) await volume.formatVolume({ volumeId: staged.volumeId, label: "pvc-6f1c2a" });
    return formatted ? "already formatted" : "formatted NTFS";
  });
  await run.step("volume: mount it at the staging path", async () => {
    await filesystem.mkdir({ path: paths.blockStaging });
    await volume.mountVolume({ volumeId: staged.volumeId, targetPath: paths.blockStaging });
    return paths.blockStaging;
  });
  await run.step("filesystem: create the pod path and link it to the staging path", async () => {
    await filesystem.mkdir({ path: paths.blockPodParent });
    await filesystem.createSymlink({ sourcePath: paths.blockStaging, targetPath: paths.blockPod });
    const { isSymlink } = await filesystem.isSymlink({ path: paths.blockPod });
    return `${paths.blockPod} (link: ${isSymlink})`;
  });
  await run.step("volume: write a file through the pod path and read stats", async () => {
    await writeFile(join(paths.blockPod, "hello.txt"), "x".repeat(1024 * 1024));
    const stats = await volume.getVolumeStats({ volumeId: staged.volumeId });
    return `1 MiB written; ${mib(stats.usedBytes)} used of ${gib(stats.totalBytes)}`;
  });
  await run.step("volume: grow it after the array grew the LUN", async () => {
    array.growLun(staged.diskNumber, world.grownLunBytes);
    await disk.rescan();
    await volume.resizeVolume({ volumeId: staged.volumeId, sizeBytes: 0 });
    const stats = await volume.getVolumeStats({ volumeId: staged.volumeId });
    return `now ${gib(stats.totalBytes)}`;
  });
  await run.step("volume: resolve the volume from the paths", async () => {
    const mounted = await volume.getVolumeIdFromTargetPath({ targetPath: paths.blockStaging });
    const closest = await volume.getClosestVolumeIdFromTargetPath({ targetPath: paths.blockPod });
    const disks = await volume.getDiskNumberFromVolumeId({ volumeId: staged.volumeId });
    if (mounted.volumeId !== staged.volumeId || closest.volumeId !== staged.volumeId)
      throw new Error("lookup mismatch");
    return `staging and pod path -> ${mounted.volumeId} on disk ${disks.diskNumber}`;
  });

  await run.step("smb: map the share with credentials at the staging path", async () => {
    const result = await smb.newSmbGlobalMapping({
      remotePath: world.shareSubPath,
      localPath: paths.smbStaging,
      username: world.smbUser,
      password: world.smbPassword,
    });
    return `mapping ${result.mapping}, link ${result.link}`;
  });
  await run.step("smb: link the pod path and write through it", async () => {
    await filesystem.mkdir({ path: paths.smbPodParent });
    await filesystem.createSymlink({ sourcePath: paths.smbStaging, targetPath: paths.smbPod });
    await writeFile(join(paths.smbPod, "report.txt"), "written by the pod\n");
    const landed = await readFile(join(array.shareFolder(), "team-a", "report.txt"), "utf8");
    return `file landed on the share: ${JSON.stringify(landed.trim())}`;
  });

  await runTeardown(groups, paths, run, staged);
}

async function runTeardown(
  groups: NodeGroups,
  paths: KubeletPaths,
  run: StepRunner,
  staged: Staged,
): Promise<void> {
  const { iscsi, disk, volume, filesystem, smb } = groups;
  const { portal, iqn } = world;
  await run.step("unpublish: remove both pod links (data untouched)", async () => {
    await filesystem.rmdir({ path: paths.smbPod, force: true });
    await filesystem.rmdir({ path: paths.blockPod, force: true });
    await filesystem.rmdir({ path: paths.smbPodParent, force: true });
    await filesystem.rmdir({ path: paths.blockPodParent, force: true });
    return "pod paths removed";
  });
  await run.step("unstage smb: remove the link and the mapping", async () => {
    await filesystem.rmdir({ path: paths.smbStaging, force: true });
    const { removed } = await smb.removeSmbGlobalMapping({ remotePath: world.shareSubPath });
    await smb.removeSmbGlobalMapping({ remotePath: world.shareSubPath });
    return `mapping removed: ${removed} (second call was a no-op)`;
  });
  await run.step("unstage volume: flush and unmount, remove the staging folder", async () => {
    const { wasMounted } = await volume.unmountVolume({
      volumeId: staged.volumeId,
      targetPath: paths.blockStaging,
    });
    await volume.unmountVolume({ volumeId: staged.volumeId, targetPath: paths.blockStaging });
    await filesystem.rmdir({ path: paths.blockStaging });
    return `unmounted: ${wasMounted} (second call was a no-op)`;
  });
  await run.step("unstage disk: take it offline", async () => {
    await disk.setDiskState({ diskNumber: staged.diskNumber, isOnline: false });
    return `disk ${staged.diskNumber} offline`;
  });
  await run.step("unstage iscsi: log out and remove the portal", async () => {
    await iscsi.disconnectTarget({ targetPortal: portal, iqn });
    await iscsi.disconnectTarget({ targetPortal: portal, iqn });
    await iscsi.removeTargetPortal({ targetPortal: portal });
    return "logged out (second call was a no-op), portal removed";
  });
  await run.step("check: the host is clean", async () => {
    const [{ targetPortals }, { diskIds }, { mappings }, stagingLeft, podLeft] = await Promise.all([
      iscsi.listTargetPortals(),
      iscsi.getTargetDisks({ targetPortal: portal, iqn }),
      smb.listSmbGlobalMappings(),
      filesystem.pathExists({ path: paths.blockStaging }),
      filesystem.pathExists({ path: paths.blockPodParent }),
    ]);
    const dirty = [
      targetPortals.length > 0 && `${targetPortals.length} portals`,
      diskIds.length > 0 && `${diskIds.length} iSCSI disks`,
      mappings.length > 0 && `${mappings.length} SMB mappings`,
      stagingLeft.exists && "a staging folder",
      podLeft.exists && "a pod folder",
    ].filter((item) => item !== false);
    if (dirty.length > 0) throw new Error(`left behind: ${dirty.join(", ")}`);
    return "no portals, sessions, iSCSI disks, SMB mappings, mounts or kubelet folders left";
  });
}
