import { CsiProxyError, type CallOptions } from "@csi-proxy/exec";
import type { Volume } from "@csi-proxy/volume";
import { confinedRefusal } from "../confined-refusal.js";
import type { PathMapping } from "../paths.js";
import type { HandlerContext, Message, ServiceHandlers } from "./context.js";
import { hostPath, int64, legacyDiskNumber, rpcOf, text, uint } from "./context.js";

/** volume v1 (`v1.Volume`); v1beta3 has the same surface. */
export function volumeV1({ groups: { volume }, paths }: HandlerContext): ServiceHandlers {
  const targetPath = (request: Message) => hostPath(paths, request, "target_path");
  const volumeId = (request: Message) => ({
    volumeId: text(request, "volume_id"),
  });
  return {
    async ListVolumesOnDisk(request, options) {
      const { volumeIds } = await volume.listVolumesOnDisk(
        {
          diskNumber: uint(request, "disk_number"),
          partitionNumber: uint(request, "partition_number"),
        },
        options,
      );
      return { volume_ids: volumeIds };
    },
    async MountVolume(request, options, scope) {
      const id = volumeId(request);
      const granted = scope?.granted;
      // PowerShell mounts by name, after the check: a folder on the way swapped for a junction
      // meanwhile would carry the mount elsewhere. So what the call added is looked for where
      // it really is, and one outside the caller's folders is taken away again.
      const before = granted === undefined ? [] : await mountPointsOf(volume, id, options);
      try {
        await volume.mountVolume({ ...id, targetPath: targetPath(request) }, options);
      } finally {
        // Also after a failure: the access path may have been added before the script failed.
        if (granted !== undefined) await undoMisplaced(volume, id, before, granted, paths, options);
      }
      return {};
    },
    async UnmountVolume(request, options) {
      await volume.unmountVolume(
        { ...volumeId(request), targetPath: targetPath(request) },
        options,
      );
      return {};
    },
    async IsVolumeFormatted(request, options) {
      const { formatted } = await volume.isVolumeFormatted(volumeId(request), options);
      return { formatted };
    },
    async FormatVolume(request, options) {
      await volume.formatVolume(volumeId(request), options);
      return {};
    },
    async ResizeVolume(request, options) {
      await volume.resizeVolume(
        { ...volumeId(request), sizeBytes: int64(request, "size_bytes") },
        options,
      );
      return {};
    },
    async GetVolumeStats(request, options) {
      const { totalBytes, usedBytes } = await volume.getVolumeStats(volumeId(request), options);
      return { total_bytes: String(totalBytes), used_bytes: String(usedBytes) };
    },
    async GetDiskNumberFromVolumeID(request, options) {
      const { diskNumber } = await volume.getDiskNumberFromVolumeId(volumeId(request), options);
      return { disk_number: diskNumber };
    },
    async GetVolumeIDFromTargetPath(request, options) {
      const found = await volume.getVolumeIdFromTargetPath(
        { targetPath: targetPath(request) },
        options,
      );
      return { volume_id: found.volumeId };
    },
    async WriteVolumeCache(request, options) {
      await volume.writeVolumeCache(volumeId(request), options);
      return {};
    },
  };
}

/** volume v2alpha1 (`v2alpha1.Volume`): v1 plus GetClosestVolumeIDFromTargetPath. */
export function volumeV2alpha1(context: HandlerContext): ServiceHandlers {
  const { volume } = context.groups;
  return {
    ...volumeV1(context),
    async GetClosestVolumeIDFromTargetPath(request, options) {
      const targetPath = hostPath(context.paths, request, "target_path");
      const found = await volume.getClosestVolumeIdFromTargetPath({ targetPath }, options);
      return { volume_id: found.volumeId };
    },
  };
}

/** volume v1beta3 (`v1beta3.Volume`): the same surface as v1. */
export const volumeV1beta3 = volumeV1;

/**
 * volume v1alpha1 (`v1alpha1.Volume`): v1's ListVolumesOnDisk (disk_id as decimal text, every
 * partition), MountVolume and DismountVolume (v1's UnmountVolume) at `path`, IsVolumeFormatted,
 * FormatVolume and ResizeVolume (`size`).
 */
export function volumeV1alpha1(context: HandlerContext): ServiceHandlers {
  const v1 = volumeV1(context);
  const mount = (request: Message) => ({
    volume_id: text(request, "volume_id"),
    target_path: text(request, "path"),
  });
  return {
    ListVolumesOnDisk(request, options) {
      return rpcOf(v1, "ListVolumesOnDisk")(
        { disk_number: legacyDiskNumber(request, "disk_id"), partition_number: 0 },
        options,
      );
    },
    MountVolume(request, options) {
      return rpcOf(v1, "MountVolume")(mount(request), options);
    },
    DismountVolume(request, options) {
      return rpcOf(v1, "UnmountVolume")(mount(request), options);
    },
    IsVolumeFormatted: rpcOf(v1, "IsVolumeFormatted"),
    FormatVolume: rpcOf(v1, "FormatVolume"),
    ResizeVolume(request, options) {
      return rpcOf(v1, "ResizeVolume")(
        { volume_id: text(request, "volume_id"), size_bytes: String(int64(request, "size")) },
        options,
      );
    },
  };
}

/**
 * volume v1beta1 (`v1beta1.Volume`): v1alpha1 plus VolumeStats, GetVolumeDiskNumber and
 * GetVolumeIDFromMount, v1's GetVolumeStats, GetDiskNumberFromVolumeID and
 * GetVolumeIDFromTargetPath under their old names and fields.
 */
export function volumeV1beta1(context: HandlerContext): ServiceHandlers {
  const v1 = volumeV1(context);
  return {
    ...volumeV1alpha1(context),
    async VolumeStats(request, options) {
      const stats = await rpcOf(v1, "GetVolumeStats")(request, options);
      return { volumeSize: stats.total_bytes, volumeUsedSize: stats.used_bytes };
    },
    async GetVolumeDiskNumber(request, options) {
      const { disk_number } = await rpcOf(v1, "GetDiskNumberFromVolumeID")(request, options);
      return { diskNumber: String(disk_number) };
    },
    GetVolumeIDFromMount(request, options) {
      return rpcOf(v1, "GetVolumeIDFromTargetPath")(
        { target_path: text(request, "mount") },
        options,
      );
    },
  };
}

/** volume v1beta2 (`v1beta2.Volume`): v1beta1 plus WriteVolumeCache. */
export function volumeV1beta2(context: HandlerContext): ServiceHandlers {
  return {
    ...volumeV1beta1(context),
    WriteVolumeCache: rpcOf(volumeV1(context), "WriteVolumeCache"),
  };
}

async function mountPointsOf(
  volume: Volume,
  id: { volumeId: string },
  options: CallOptions,
): Promise<string[]> {
  return (await volume.listVolumeMountPoints(id, options)).mountPoints;
}

/**
 * Removes the mount points a MountVolume added outside the caller's folders (found where Windows
 * lists them, which is where they are), then refuses the call; says nothing of where it went.
 */
async function undoMisplaced(
  volume: Volume,
  id: { volumeId: string },
  before: readonly string[],
  granted: (windowsPath: string) => Promise<boolean>,
  paths: PathMapping,
  options: CallOptions,
): Promise<void> {
  const added = (await mountPointsOf(volume, id, options)).filter((p) => !before.includes(p));
  let misplaced = false;
  for (const mountPoint of added) {
    const folder = mountPoint.replace(/[\\/]+$/, "");
    // A drive letter is no folder a MountVolume to a path adds.
    if (/^[a-z]:$/i.test(folder)) continue;
    const windows = paths.fromHost(folder);
    if (windows !== undefined && (await granted(windows))) continue;
    misplaced = true;
    await volume.unmountVolume({ ...id, targetPath: folder }, options);
  }
  if (misplaced) {
    throw confinedRefusal(
      new CsiProxyError(
        "MountVolume is denied: the folder changed while the volume was mounted; the mount was taken away again.",
        { code: "PERMISSION_DENIED" },
      ),
    );
  }
}
