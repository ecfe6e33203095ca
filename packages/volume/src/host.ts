import type { PowerShell } from "@csi-proxy/exec";
import type {
  MountOutcome,
  PartitionSizes,
  PathLookup,
  UnmountOutcome,
  VolumeHost,
  VolumeInfo,
} from "./host-types.js";
import {
  parseDiskNumbers,
  parseMountOutcome,
  parsePartitionSizes,
  parsePathLookup,
  parseUnmountOutcome,
  parseVolumeIds,
  parseVolumeInfo,
  toByteCount,
} from "./parse.js";
import { findClosestVolumeScript, resolveMountTargetScript } from "./path-scripts.js";
import {
  formatVolumeScript,
  getVolumeScript,
  listVolumeIdsScript,
  mountVolumeScript,
  unmountVolumeScript,
} from "./scripts.js";
import {
  getDiskNumbersScript,
  getPartitionSizesScript,
  resizePartitionScript,
  writeVolumeCacheScript,
} from "./size-scripts.js";
import type { VolumeFileSystem } from "./types.js";

/** Every script of this package, for audits and static checks. */
export const volumeScripts = Object.freeze({
  /** Volume ids of one or all partitions of a disk. */
  listVolumeIds: listVolumeIdsScript,
  /** File system, label and sizes of a volume. */
  getVolume: getVolumeScript,
  /** Quick-formats a volume. */
  formatVolume: formatVolumeScript,
  /** Adds an access path unless the folder is taken. */
  mountVolume: mountVolumeScript,
  /** Flushes, then removes an access path. */
  unmountVolume: unmountVolumeScript,
  /** A volume's partition size, and its supported maximum on request. */
  getPartitionSizes: getPartitionSizesScript,
  /** Resizes a volume's partition. */
  resizePartition: resizePartitionScript,
  /** Disk numbers of a volume's partitions. */
  getDiskNumbers: getDiskNumbersScript,
  /** Flushes a volume's cache. */
  writeVolumeCache: writeVolumeCacheScript,
  /** Follows links from a path to a volume mount. */
  resolveMountTarget: resolveMountTargetScript,
  /** Finds the volume that holds a path. */
  findClosestVolume: findClosestVolumeScript,
});

/**
 * The default {@link VolumeHost}: each method is one constant script run through `shell`, with
 * every caller value passed as a parameter.
 *
 * @example
 * ```ts
 * const volume = new Volume({ host: createPowerShellVolumeHost(createPowerShell()) });
 * ```
 */
export function createPowerShellVolumeHost(shell: PowerShell): VolumeHost {
  return {
    async listVolumeIds(diskNumber: number, partitionNumber: number): Promise<string[]> {
      const out = await shell.run(listVolumeIdsScript, {
        DiskNumber: diskNumber,
        PartitionNumber: partitionNumber,
      });
      return parseVolumeIds(out);
    },
    async getVolume(volumeId: string): Promise<VolumeInfo> {
      return parseVolumeInfo(await shell.run(getVolumeScript, { VolumeId: volumeId }));
    },
    async formatVolume(volumeId: string, fileSystem: VolumeFileSystem, label: string) {
      await shell.run(formatVolumeScript, {
        VolumeId: volumeId,
        FileSystem: fileSystem,
        Label: label,
      });
    },
    async mountVolume(volumeId: string, targetPath: string): Promise<MountOutcome> {
      const out = await shell.run(mountVolumeScript, {
        VolumeId: volumeId,
        TargetPath: targetPath,
      });
      return parseMountOutcome(out);
    },
    async unmountVolume(volumeId: string, targetPath: string): Promise<UnmountOutcome> {
      const out = await shell.run(unmountVolumeScript, {
        VolumeId: volumeId,
        TargetPath: targetPath,
      });
      return parseUnmountOutcome(out);
    },
    async getPartitionSizes(volumeId: string, includeMaximum: boolean): Promise<PartitionSizes> {
      const out = await shell.run(getPartitionSizesScript, {
        VolumeId: volumeId,
        IncludeMaximum: includeMaximum,
      });
      return parsePartitionSizes(out);
    },
    async resizePartition(volumeId: string, sizeBytes: bigint) {
      await shell.run(resizePartitionScript, { VolumeId: volumeId, Size: toByteCount(sizeBytes) });
    },
    async getDiskNumbers(volumeId: string): Promise<number[]> {
      return parseDiskNumbers(await shell.run(getDiskNumbersScript, { VolumeId: volumeId }));
    },
    async writeVolumeCache(volumeId: string) {
      await shell.run(writeVolumeCacheScript, { VolumeId: volumeId });
    },
    async resolveMountTarget(targetPath: string, maxDepth: number): Promise<PathLookup> {
      const out = await shell.run(resolveMountTargetScript, {
        TargetPath: targetPath,
        MaxDepth: maxDepth,
      });
      return parsePathLookup(out);
    },
    async findClosestVolume(targetPath: string, maxSteps: number): Promise<PathLookup> {
      const out = await shell.run(findClosestVolumeScript, {
        TargetPath: targetPath,
        MaxSteps: maxSteps,
      });
      return parsePathLookup(out);
    },
  };
}
