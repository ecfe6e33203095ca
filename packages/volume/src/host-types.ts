import type { CallContext } from "@csi-proxy/exec";
import type { VolumeFileSystem } from "./types.js";

/** What a volume looks like to the host layer. Sizes are exact (`bigint`). */
export interface VolumeInfo {
  /** `\\?\Volume{GUID}\`. */
  volumeId: string;
  /** `MSFT_Volume.FileSystem`, e.g. `NTFS`; empty for a RAW volume. */
  fileSystem: string;
  /** The Storage module's display string (`NTFS`, `Unknown`) or a raw code. */
  fileSystemType: string;
  /** The file system label. */
  label: string;
  /** `Size` in bytes. */
  size: bigint;
  /** `SizeRemaining` in bytes. */
  sizeRemaining: bigint;
}

/** The partition under a volume; `sizeMax` only when asked for (undefined if Windows gave none). */
export interface PartitionSizes {
  /** The partition's disk number. */
  diskNumber: number;
  /** The partition's number on its disk. */
  partitionNumber: number;
  /** The partition's size in bytes. */
  size: bigint;
  /** `Get-PartitionSupportedSize`'s `SizeMax`. */
  sizeMax?: bigint | undefined;
  /** Where the partition sits on its disk, as MSFT_Partition and MSFT_Disk report it; absent from hosts that do not read it. */
  layout?: PartitionLayout | undefined;
}

/** The layout that bounds a partition, readable without the Optimize Drives service (defragsvc). */
export interface PartitionLayout {
  /** The partition's `Offset` in bytes. */
  offset: bigint;
  /** The `Offset` of the next partition on the disk; undefined when this one is the last. */
  nextOffset?: bigint | undefined;
  /** The disk's `Size` in bytes (after the cache refresh). */
  diskSize: bigint;
  /** The disk's `LogicalSectorSize` in bytes. */
  logicalSectorSize: number;
  /** Raw `MSFT_Disk.PartitionStyle`: 1 MBR, 2 GPT. */
  partitionStyle: number;
}

/** What the mount script found or did. */
export type MountOutcome =
  | {
      /** Mounted now. */
      status: "mounted";
    }
  | {
      /** This volume was mounted there already. */
      status: "alreadyMounted";
    }
  | {
      /** The folder holds another mount or a link. */
      status: "occupied";
      /** What the folder points at. */
      target: string;
    }
  | {
      /** The folder is not empty. */
      status: "notEmpty";
    }
  | {
      /** The path is a file. */
      status: "notDirectory";
    };

/** What the unmount script found or did (the cache is flushed in every case). */
export type UnmountOutcome =
  | {
      /** The access path was removed. */
      status: "unmounted";
    }
  | {
      /** The volume was not mounted there (or the folder is gone). */
      status: "notMounted";
    }
  | {
      /** The folder is a mount of a different volume; nothing was removed. */
      status: "otherVolume";
      /** What the folder points at. */
      target: string;
    };

/** The result of following a path to its volume. */
export type PathLookup =
  | {
      /** A volume holds the path. */
      status: "found";
      /** `\\?\Volume{GUID}\`. */
      volumeId: string;
    }
  | {
      /** The path is neither a link nor a mount point. */
      status: "notMounted";
      /** The path where the walk stopped. */
      path: string;
    }
  | {
      /** A partition matched but has no volume, or nothing matched up to the root. */
      status: "noVolume";
      /** The path where the walk stopped. */
      path: string;
    }
  | {
      /** The step limit was reached, e.g. by a link loop. */
      status: "tooDeep";
    };

/**
 * The host layer {@link Volume} runs on: one PowerShell call per method. The default is backed
 * by `@csi-proxy/exec`; unit tests inject a fake. Arguments are already validated. Failures are
 * thrown as they come (e.g. `PowerShellError`); `Volume` maps them to codes. Every method's last
 * parameter, `context`, is the calling method's deadline and signal (`noCallContext` when left out).
 */
export interface VolumeHost {
  /** Volume ids of one partition, or of all partitions when `partitionNumber` is 0. */
  listVolumeIds(
    diskNumber: number,
    partitionNumber: number,
    context?: CallContext,
  ): Promise<string[]>;
  /** File system, label and sizes of the volume. */
  getVolume(volumeId: string, context?: CallContext): Promise<VolumeInfo>;
  /** Quick-formats the volume; an empty label sets none. */
  formatVolume(
    volumeId: string,
    fileSystem: VolumeFileSystem,
    label: string,
    context?: CallContext,
  ): Promise<void>;
  /** Mounts unless the path is taken; reports what it found. */
  mountVolume(volumeId: string, targetPath: string, context?: CallContext): Promise<MountOutcome>;
  /** Flushes the volume's cache, then removes the access path when it is mounted there. */
  unmountVolume(
    volumeId: string,
    targetPath: string,
    context?: CallContext,
  ): Promise<UnmountOutcome>;
  /** The partition's size, plus its supported maximum when `includeMaximum` is set. */
  getPartitionSizes(
    volumeId: string,
    includeMaximum: boolean,
    context?: CallContext,
  ): Promise<PartitionSizes>;
  /** Resizes the volume's partition (and file system) to `sizeBytes`. */
  resizePartition(volumeId: string, sizeBytes: bigint, context?: CallContext): Promise<void>;
  /** Disk numbers of the volume's partitions (one for a basic volume). */
  getDiskNumbers(volumeId: string, context?: CallContext): Promise<number[]>;
  /** Flushes the volume's file-system cache. */
  writeVolumeCache(volumeId: string, context?: CallContext): Promise<void>;
  /** The partition's access paths (drive roots, mount folders) without its `\\?\Volume{GUID}\` path. */
  listMountPoints(volumeId: string, context?: CallContext): Promise<string[]>;
  /** Follows links from `targetPath` (at most `maxDepth`) to a volume mount. */
  resolveMountTarget(
    targetPath: string,
    maxDepth: number,
    context?: CallContext,
  ): Promise<PathLookup>;
  /** Follows links and walks up from `targetPath` (at most `maxSteps`) to the volume holding it. */
  findClosestVolume(
    targetPath: string,
    maxSteps: number,
    context?: CallContext,
  ): Promise<PathLookup>;
}
