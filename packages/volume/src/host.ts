import {
  noCallContext,
  type CallContext,
  type Params,
  type PowerShell,
  type Script,
} from "@csi-proxy/exec";
import type {
  MountOutcome,
  ResizeOutcome,
  PathLookup,
  UnmountOutcome,
  VolumeHost,
  VolumeInfo,
} from "./host-types.js";
import {
  parseDiskNumbers,
  parseMountOutcome,
  parseMountPoints,
  parseResizeOutcome,
  parsePathLookup,
  parseUnmountOutcome,
  parseVolumeDisks,
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
  listMountPointsScript,
  listVolumeDisksScript,
  resizeVolumeScript,
  writeVolumeCacheScript,
} from "./size-scripts.js";
import { minimumResizeBytes } from "./resize.js";
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
  /** Refreshes the storage cache, reads a volume's partition, decides and grows it. */
  resizeVolume: resizeVolumeScript,
  /** Disk numbers of a volume's partitions. */
  getDiskNumbers: getDiskNumbersScript,
  /** Every volume of the node and the disks of its partitions. */
  listVolumeDisks: listVolumeDisksScript,
  /** Flushes a volume's cache. */
  writeVolumeCache: writeVolumeCacheScript,
  /** A volume's access paths other than its GUID path. */
  listMountPoints: listMountPointsScript,
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
  // Every script draws on the calling method's deadline; alone, a host call has none.
  function run(script: Script, params: Params, context: CallContext | undefined): Promise<unknown> {
    return shell.run(script, params, (context ?? noCallContext).runOptions());
  }

  return {
    async listVolumeIds(
      diskNumber: number,
      partitionNumber: number,
      context?: CallContext,
    ): Promise<string[]> {
      const out = await run(
        listVolumeIdsScript,
        { DiskNumber: diskNumber, PartitionNumber: partitionNumber },
        context,
      );
      return parseVolumeIds(out);
    },
    async getVolume(volumeId: string, context?: CallContext): Promise<VolumeInfo> {
      return parseVolumeInfo(await run(getVolumeScript, { VolumeId: volumeId }, context));
    },
    async formatVolume(
      volumeId: string,
      fileSystem: VolumeFileSystem,
      label: string,
      context?: CallContext,
    ) {
      await run(
        formatVolumeScript,
        { VolumeId: volumeId, FileSystem: fileSystem, Label: label },
        context,
      );
    },
    async mountVolume(
      volumeId: string,
      targetPath: string,
      context?: CallContext,
    ): Promise<MountOutcome> {
      const out = await run(
        mountVolumeScript,
        { VolumeId: volumeId, TargetPath: targetPath },
        context,
      );
      return parseMountOutcome(out);
    },
    async unmountVolume(
      volumeId: string,
      targetPath: string,
      context?: CallContext,
    ): Promise<UnmountOutcome> {
      const out = await run(
        unmountVolumeScript,
        { VolumeId: volumeId, TargetPath: targetPath },
        context,
      );
      return parseUnmountOutcome(out);
    },
    async resizeVolume(
      volumeId: string,
      requestedBytes: bigint,
      context?: CallContext,
    ): Promise<ResizeOutcome> {
      const out = await run(
        resizeVolumeScript,
        {
          VolumeId: volumeId,
          Requested: toByteCount(requestedBytes),
          MinimumGrowth: toByteCount(minimumResizeBytes),
        },
        context,
      );
      return parseResizeOutcome(out);
    },
    async getDiskNumbers(volumeId: string, context?: CallContext): Promise<number[]> {
      return parseDiskNumbers(await run(getDiskNumbersScript, { VolumeId: volumeId }, context));
    },
    async listVolumeDisks(context?: CallContext) {
      return parseVolumeDisks(await run(listVolumeDisksScript, {}, context));
    },
    async writeVolumeCache(volumeId: string, context?: CallContext) {
      await run(writeVolumeCacheScript, { VolumeId: volumeId }, context);
    },
    async listMountPoints(volumeId: string, context?: CallContext): Promise<string[]> {
      return parseMountPoints(await run(listMountPointsScript, { VolumeId: volumeId }, context));
    },
    async resolveMountTarget(
      targetPath: string,
      maxDepth: number,
      context?: CallContext,
    ): Promise<PathLookup> {
      const out = await run(
        resolveMountTargetScript,
        { TargetPath: targetPath, MaxDepth: maxDepth },
        context,
      );
      return parsePathLookup(out);
    },
    async findClosestVolume(
      targetPath: string,
      maxSteps: number,
      context?: CallContext,
    ): Promise<PathLookup> {
      const out = await run(
        findClosestVolumeScript,
        { TargetPath: targetPath, MaxSteps: maxSteps },
        context,
      );
      return parsePathLookup(out);
    },
  };
}
