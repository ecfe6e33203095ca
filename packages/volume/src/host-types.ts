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

/**
 * What the resize script found or did: `resized` to `sizeBytes`; `skipped` (a shrink, or growth
 * under `minimumResizeBytes`); `unreachable`, an explicit size above the disk Windows sees
 * (`diskSize`, after the cache refresh); `noSizeMax`, a request for the maximum while Windows
 * gives no SizeMax. Only `resized` changed anything.
 */
export type ResizeOutcome =
  | {
      /** The partition was grown. */
      status: "resized";
      /** Its new size in bytes. */
      sizeBytes: bigint;
    }
  | {
      /** Nothing changed: a shrink, or growth under `minimumResizeBytes`. */
      status: "skipped";
    }
  | {
      /** The size asked for lies beyond the disk even after the cache refresh. */
      status: "unreachable";
      /** The disk's size in bytes, as Windows reported it. */
      diskSize: bigint;
    }
  | {
      /** A request for the maximum while Windows gives no SizeMax. */
      status: "noSizeMax";
    };

/**
 * The layout that bounds a partition, readable without the Optimize Drives service (defragsvc),
 * from which resize.ts `layoutSizeMax` (and the resize script, alike) tells its largest size.
 */
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
  /**
   * In one call: refreshes the storage cache, reads the volume's partition, decides as
   * resize.ts `resizeDecision` does (`requestedBytes` 0 is the supported maximum; an explicit
   * size is clamped to it, or to the layout's maximum when Get-PartitionSupportedSize fails) and
   * grows the partition (and file system) when the growth is at least `minimumResizeBytes`.
   * A failing Get-PartitionSupportedSize fails the call when `requestedBytes` is 0.
   */
  resizeVolume(
    volumeId: string,
    requestedBytes: bigint,
    context?: CallContext,
  ): Promise<ResizeOutcome>;
  /** Disk numbers of the volume's partitions (one for a basic volume). */
  getDiskNumbers(volumeId: string, context?: CallContext): Promise<number[]>;
  /** Every volume of the node and the disk of each of its partitions, in one listing. */
  listVolumeDisks(context?: CallContext): Promise<HostVolumeDisk[]>;
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

/** One partition's volume and the disk it lies on. */
export interface HostVolumeDisk {
  /** The volume's `\\?\Volume{GUID}\` id. */
  volumeId: string;
  diskNumber: number;
}
