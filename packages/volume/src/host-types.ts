import type { VolumeFileSystem } from "./types.js";

/** What a volume looks like to the host layer. Sizes are exact (`bigint`). */
export interface VolumeInfo {
  volumeId: string;
  fileSystem: string;
  /** The Storage module's display string (`NTFS`, `Unknown`) or a raw code. */
  fileSystemType: string;
  label: string;
  size: bigint;
  sizeRemaining: bigint;
}

/** The partition under a volume; `sizeMax` only when asked for (undefined if Windows gave none). */
export interface PartitionSizes {
  diskNumber: number;
  partitionNumber: number;
  size: bigint;
  sizeMax?: bigint | undefined;
}

/** What the mount script found or did. */
export type MountOutcome =
  | { status: "mounted" }
  | { status: "alreadyMounted" }
  | { status: "occupied"; target: string }
  | { status: "notEmpty" }
  | { status: "notDirectory" };

/** What the unmount script found or did (the cache is flushed in every case). */
export type UnmountOutcome =
  { status: "unmounted" } | { status: "notMounted" } | { status: "otherVolume"; target: string };

/** The result of following a path to its volume. */
export type PathLookup =
  | { status: "found"; volumeId: string }
  | { status: "notMounted"; path: string }
  | { status: "noVolume"; path: string }
  | { status: "tooDeep" };

/**
 * The host layer {@link Volume} runs on: one PowerShell call per method. The default is backed
 * by `@csi-proxy/exec`; unit tests inject a fake. Arguments are already validated. Failures are
 * thrown as they come (e.g. `PowerShellError`); `Volume` maps them to codes.
 */
export interface VolumeHost {
  /** Volume ids of one partition, or of all partitions when `partitionNumber` is 0. */
  listVolumeIds(diskNumber: number, partitionNumber: number): Promise<string[]>;
  /** File system, label and sizes of the volume. */
  getVolume(volumeId: string): Promise<VolumeInfo>;
  /** Quick-formats the volume; an empty label sets none. */
  formatVolume(volumeId: string, fileSystem: VolumeFileSystem, label: string): Promise<void>;
  /** Mounts unless the path is taken; reports what it found. */
  mountVolume(volumeId: string, targetPath: string): Promise<MountOutcome>;
  /** Flushes the volume's cache, then removes the access path when it is mounted there. */
  unmountVolume(volumeId: string, targetPath: string): Promise<UnmountOutcome>;
  /** The partition's size, plus its supported maximum when `includeMaximum` is set. */
  getPartitionSizes(volumeId: string, includeMaximum: boolean): Promise<PartitionSizes>;
  /** Resizes the volume's partition (and file system) to `sizeBytes`. */
  resizePartition(volumeId: string, sizeBytes: bigint): Promise<void>;
  /** Disk numbers of the volume's partitions (one for a basic volume). */
  getDiskNumbers(volumeId: string): Promise<number[]>;
  /** Flushes the volume's file-system cache. */
  writeVolumeCache(volumeId: string): Promise<void>;
  /** Follows links from `targetPath` (at most `maxDepth`) to a volume mount. */
  resolveMountTarget(targetPath: string, maxDepth: number): Promise<PathLookup>;
  /** Follows links and walks up from `targetPath` (at most `maxSteps`) to the volume holding it. */
  findClosestVolume(targetPath: string, maxSteps: number): Promise<PathLookup>;
}
