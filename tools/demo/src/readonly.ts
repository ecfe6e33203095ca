import type { NodeGroups } from "./node.js";
import type { StepRunner } from "./steps.js";

/** `--host real`: only calls that change nothing, against this Windows machine. */
export async function runReadOnly(groups: NodeGroups, run: StepRunner): Promise<void> {
  const { system, iscsi, disk, volume, smb } = groups;
  await run.step("system: BIOS serial number", async () =>
    JSON.stringify((await system.getBiosSerialNumber()).serialNumber),
  );
  await run.step("system: the iSCSI initiator service", async () => {
    const service = await system.getService({ name: "MSiSCSI" });
    return `${service.displayName}: ${service.statusName}, ${service.startTypeName}`;
  });
  await run.step("disk: IDs", async () => {
    const { diskIds, errors } = await disk.listDiskIds();
    return `${diskIds.size} disks, ${errors.length} unreadable`;
  });
  await run.step(
    "disk: locations",
    async () => `${(await disk.listDiskLocations()).diskLocations.size} with SCSI locations`,
  );
  await run.step("disk: disk 0", async () => {
    const [stats, state] = await Promise.all([
      disk.getDiskStats({ diskNumber: 0 }),
      disk.getDiskState({ diskNumber: 0 }),
    ]);
    return `${String(stats.totalBytes)} bytes, online: ${state.isOnline}`;
  });
  await run.step("volume: volumes on disk 0", async () =>
    (await volume.listVolumesOnDisk({ diskNumber: 0 })).volumeIds.join(", "),
  );
  await run.step(
    "volume: the volume holding C:\\Windows",
    async () =>
      (await volume.getClosestVolumeIdFromTargetPath({ targetPath: "C:\\Windows" })).volumeId,
  );
  await run.step(
    "iscsi: registered portals",
    async () => `${(await iscsi.listTargetPortals()).targetPortals.length}`,
  );
  await run.step(
    "smb: global mappings",
    async () => `${(await smb.listSmbGlobalMappings()).mappings.length}`,
  );
}
