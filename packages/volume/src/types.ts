import type { EmptyResponse, HostOptions, PathStyle } from "@csi-proxy/exec";
import type { VolumeHost } from "./host-types.js";

/** How target paths are validated: Windows (`C:\...`, `\\?\C:\...`) or POSIX (`/...`), as in the Filesystem group. */
export type { PathStyle };

/** File systems {@link Volume.formatVolume} can create. */
export type VolumeFileSystem = "NTFS" | "ReFS";

/** A byte count: `number` below 2^53, `bigint` above (UInt64 values from Windows). */
export type ByteCount = number | bigint;

/** Options of the {@link Volume} constructor. */
export interface VolumeOptions extends HostOptions<VolumeHost> {
  /** Path rules for `targetPath`; defaults to `"windows"` on win32 and `"posix"` elsewhere. */
  pathStyle?: PathStyle;
}

/** Request of {@link Volume.listVolumesOnDisk}. */
export interface ListVolumesOnDiskRequest {
  /** The Windows disk number. */
  diskNumber: number;
  /** 0 or absent: the volumes of every partition on the disk. */
  partitionNumber?: number;
}

/** Response of {@link Volume.listVolumesOnDisk}. */
export interface ListVolumesOnDiskResponse {
  /** `\\?\Volume{GUID}\` ids; empty when the disk (or partition) has no volume. */
  volumeIds: string[];
}

/** Request of {@link Volume.mountVolume}. */
export interface MountVolumeRequest {
  /** The volume to mount, `\\?\Volume{GUID}\`. */
  volumeId: string;
  /** An existing, empty folder. */
  targetPath: string;
}

/** Response of {@link Volume.mountVolume}. */
export interface MountVolumeResponse {
  /** True when the volume was already mounted at the target path (nothing was changed). */
  alreadyMounted: boolean;
}

/** Request of {@link Volume.unmountVolume}. */
export interface UnmountVolumeRequest {
  /** The volume to unmount, `\\?\Volume{GUID}\`. */
  volumeId: string;
  /** The folder it is mounted at; the folder itself stays. */
  targetPath: string;
}

/** Response of {@link Volume.unmountVolume}. */
export interface UnmountVolumeResponse {
  /** False when the volume was not mounted at the target path (nothing was changed). */
  wasMounted: boolean;
}

/** Request naming one volume: {@link Volume.isVolumeFormatted}, stats, cache and disk lookups. */
export interface VolumeIdRequest {
  /** The volume, `\\?\Volume{GUID}\`. */
  volumeId: string;
}

/** Request of {@link Volume.isVolumeFormatted}. */
export type IsVolumeFormattedRequest = VolumeIdRequest;

/** Response of {@link Volume.isVolumeFormatted}. */
export interface IsVolumeFormattedResponse {
  /** True for any file system (NTFS, ReFS, FAT32, ...), as upstream. */
  formatted: boolean;
}

/** Request of {@link Volume.formatVolume}. */
export interface FormatVolumeRequest {
  /** The volume to format, `\\?\Volume{GUID}\`. */
  volumeId: string;
  /** Defaults to `"NTFS"`. */
  fileSystem?: VolumeFileSystem;
  /** The new file system label (at most 32 characters); none by default. */
  label?: string;
}

/** Response of {@link Volume.formatVolume} (empty, as upstream). */
export type FormatVolumeResponse = EmptyResponse;

/** Request of {@link Volume.resizeVolume}. */
export interface ResizeVolumeRequest {
  /** The volume whose partition is resized, `\\?\Volume{GUID}\`. */
  volumeId: string;
  /** The new partition size in bytes; 0 means the largest size the partition supports. */
  sizeBytes: ByteCount;
}

/** Response of {@link Volume.resizeVolume}. */
export interface ResizeVolumeResponse {
  /** False when the request was skipped (shrink, or growth below 100 MiB). */
  resized: boolean;
}

/** Request of {@link Volume.getVolumeStats}. */
export type GetVolumeStatsRequest = VolumeIdRequest;

/** Response of {@link Volume.getVolumeStats}: file-system sizes, not partition sizes. */
export interface GetVolumeStatsResponse {
  /** `Size` of the volume. */
  totalBytes: ByteCount;
  /** `Size - SizeRemaining` of the volume. */
  usedBytes: ByteCount;
}

/** Request of {@link Volume.getDiskNumberFromVolumeId}. */
export type GetDiskNumberFromVolumeIdRequest = VolumeIdRequest;

/** Response of {@link Volume.getDiskNumberFromVolumeId}. */
export interface GetDiskNumberFromVolumeIdResponse {
  /** The Windows disk number of the volume's partition. */
  diskNumber: number;
}

/** Request of {@link Volume.listVolumeDisks}: empty. */
export type ListVolumeDisksRequest = Record<string, never>;

/** Response of {@link Volume.listVolumeDisks}. */
export interface ListVolumeDisksResponse {
  /** Every volume that has a partition, ordered by id. */
  volumes: VolumeDisks[];
}

/** A volume and the disks its partitions lie on. */
export interface VolumeDisks {
  /** The volume's `\\?\Volume{GUID}\` id, as Windows spells it. */
  volumeId: string;
  /** Its partitions' disk numbers, ascending (one for a basic volume). */
  diskNumbers: number[];
}

/** Request of {@link Volume.getVolumeIdFromTargetPath} and the closest-volume lookup. */
export interface TargetPathRequest {
  /** An absolute path by the instance's path rules. */
  targetPath: string;
}

/** Request of {@link Volume.getVolumeIdFromTargetPath}. */
export type GetVolumeIdFromTargetPathRequest = TargetPathRequest;

/** Request of {@link Volume.getClosestVolumeIdFromTargetPath}. */
export type GetClosestVolumeIdFromTargetPathRequest = TargetPathRequest;

/** Response of both target-path lookups. */
export interface VolumeIdResponse {
  /** `\\?\Volume{GUID}\`. */
  volumeId: string;
}

/** Response of {@link Volume.getVolumeIdFromTargetPath}. */
export type GetVolumeIdFromTargetPathResponse = VolumeIdResponse;

/** Response of {@link Volume.getClosestVolumeIdFromTargetPath}. */
export type GetClosestVolumeIdFromTargetPathResponse = VolumeIdResponse;

/** Request of {@link Volume.writeVolumeCache}. */
export type WriteVolumeCacheRequest = VolumeIdRequest;

/** `listVolumeMountPoints` request. */
export type ListVolumeMountPointsRequest = VolumeIdRequest;

/** `listVolumeMountPoints` response. */
export interface ListVolumeMountPointsResponse {
  /** Drive roots (`D:\`) and mount folders of the volume, as Windows lists them; empty when none. */
  mountPoints: string[];
}

/** Response of {@link Volume.writeVolumeCache} (empty, as upstream). */
export type WriteVolumeCacheResponse = EmptyResponse;
