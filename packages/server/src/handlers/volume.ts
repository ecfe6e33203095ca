import type { HandlerContext, Message, ServiceHandlers } from "./context.js";
import { hostPath, int64, text, uint } from "./context.js";

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
    async MountVolume(request, options) {
      await volume.mountVolume({ ...volumeId(request), targetPath: targetPath(request) }, options);
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
