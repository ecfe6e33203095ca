// What every Go driver replay offers the tests, and the format-and-mount sequence the block
// drivers share (their `FormatAndMount` on csi-proxy v1: PartitionDisk, SetDiskState online
// (not azuredisk), ListVolumesOnDisk's first volume, IsVolumeFormatted, FormatVolume, MountVolume).
import type { GoNode } from "./go-client.js";

/** One driver's node service, as its Windows code calls csi-proxy v1. */
export interface DriverReplay {
  /** The CSI driver's name (kubelet's plugin folder). */
  readonly driver: string;
  /** The endpoint set its pods mount under a least-privilege policy. */
  readonly set: string;
  /** NodeGetInfo, when it calls csi-proxy (at the plugin's registration). */
  readonly nodeInfo?: () => Promise<void>;
  readonly stage: () => Promise<void>;
  readonly publish: () => Promise<void>;
  readonly stats: () => Promise<void>;
  /**
   * NodeExpandVolume after the cloud grew the disk (`grow` does, when the test grows it); the
   * capacity it reports. Absent: the driver answers Unimplemented without calling csi-proxy.
   */
  readonly expand?: (grow: () => void) => Promise<bigint>;
  readonly unpublish: () => Promise<void>;
  readonly unstage: () => Promise<void>;
  /** What the driver holds once staged and published: no other driver may reach it. */
  readonly holds: () => Held;
}

/** A driver's resources on the node. */
export interface Held {
  readonly diskNumber?: number;
  readonly volumeId?: string;
  /** Its staging and pod paths, as the server sees them (`c:\...`). */
  readonly paths: readonly string[];
  readonly share?: string;
}

/** The first volume on the disk, formatted if it is not, mounted at `target`; its id. */
export async function formatAndMount(
  node: GoNode,
  diskNumber: number,
  target: string,
  setOnline: boolean,
): Promise<string> {
  await node.call("disk-v1", "PartitionDisk", { disk_number: diskNumber });
  if (setOnline) {
    await node.call("disk-v1", "SetDiskState", { disk_number: diskNumber, is_online: true });
  }
  const { volume_ids } = (await node.call("volume-v1", "ListVolumesOnDisk", {
    disk_number: diskNumber,
  })) as { volume_ids: string[] };
  const [volumeId] = volume_ids;
  if (volumeId === undefined) throw new Error("ListVolumesOnDisk does not return any volumes");
  const { formatted } = (await node.call("volume-v1", "IsVolumeFormatted", {
    volume_id: volumeId,
  })) as { formatted: boolean };
  if (!formatted) await node.call("volume-v1", "FormatVolume", { volume_id: volumeId });
  await node.call("volume-v1", "MountVolume", { volume_id: volumeId, target_path: target });
  return volumeId;
}

/**
 * UnmountDevice as aws-ebs, gce-pd and vSphere write it: the volume mounted at the staging path
 * unmounted, the folder removed, the disk taken offline.
 */
export async function unmountAndOffline(node: GoNode, staging: string): Promise<void> {
  const id = await volumeIdAt(node, staging);
  await node.call("volume-v1", "UnmountVolume", { volume_id: id, target_path: staging });
  await node.call("filesystem-v1", "Rmdir", { path: staging, force: true });
  const diskNumber = await diskOfVolume(node, id);
  await node.call("disk-v1", "SetDiskState", { disk_number: diskNumber, is_online: false });
}

/** CreateSymlink: the pod path made a link to the staging path (every driver's publish). */
export async function link(node: GoNode, staging: string, target: string): Promise<void> {
  await node.call("filesystem-v1", "CreateSymlink", { source_path: staging, target_path: target });
}

/** `GetVolumeIDFromTargetPath`'s volume id. */
export async function volumeIdAt(node: GoNode, targetPath: string): Promise<string> {
  const { volume_id } = (await node.call("volume-v1", "GetVolumeIDFromTargetPath", {
    target_path: targetPath,
  })) as { volume_id: string };
  return volume_id;
}

/** `PathExists`'s answer. */
export async function pathExists(node: GoNode, path: string): Promise<boolean> {
  return ((await node.call("filesystem-v1", "PathExists", { path })) as { exists: boolean }).exists;
}

/** `IsSymlink`'s answer. */
export async function isSymlink(node: GoNode, path: string): Promise<boolean> {
  return ((await node.call("filesystem-v1", "IsSymlink", { path })) as { is_symlink: boolean })
    .is_symlink;
}

/** `GetDiskStats`'s total bytes (an int64, as text on the wire's JSON form). */
export async function diskBytes(node: GoNode, diskNumber: number): Promise<bigint> {
  const { total_bytes } = (await node.call("disk-v1", "GetDiskStats", {
    disk_number: diskNumber,
  })) as { total_bytes: string };
  return BigInt(total_bytes);
}

/** `GetVolumeStats`'s total bytes. */
export async function volumeBytes(node: GoNode, volumeId: string): Promise<bigint> {
  const { total_bytes } = (await node.call("volume-v1", "GetVolumeStats", {
    volume_id: volumeId,
  })) as { total_bytes: string };
  return BigInt(total_bytes);
}

/** `GetDiskNumberFromVolumeID`'s disk number. */
export async function diskOfVolume(node: GoNode, volumeId: string): Promise<number> {
  return (
    (await node.call("volume-v1", "GetDiskNumberFromVolumeID", { volume_id: volumeId })) as {
      disk_number: number;
    }
  ).disk_number;
}
