import type { EmptyResponse } from "@csi-proxy/exec";

/** A request naming one disk by its Windows disk number (`Get-Disk` `Number`, a uint32). */
export interface DiskNumberRequest {
  /** Windows disk number: an integer from 0 to 4294967295. */
  readonly diskNumber: number;
}

/** Request of {@link Disk.listDiskLocations}: no fields. */
export type ListDiskLocationsRequest = Record<string, never>;

/**
 * Where a disk is attached, parsed from `MSFT_Disk.Location`
 * (e.g. `PCI Slot 3 : Adapter 0 : Port 0 : Target 1 : LUN 0`). Values stay strings; a field the
 * Location does not name is `""`.
 */
export interface DiskLocation {
  /** The `Adapter` value, `""` when absent. */
  readonly adapter: string;
  /** The `Bus` value, `""` when absent. */
  readonly bus: string;
  /** The `Target` value, `""` when absent. */
  readonly target: string;
  /** The `LUN` value (upstream's `LUNID`), `""` when absent. */
  readonly lunId: string;
}

/** Response of {@link Disk.listDiskLocations}. */
export interface ListDiskLocationsResponse {
  /** Disk number → location, for every disk whose Location has the SCSI-style shape. */
  readonly diskLocations: ReadonlyMap<number, DiskLocation>;
}

/** Request of {@link Disk.partitionDisk}. */
export type PartitionDiskRequest = DiskNumberRequest;
/** Response of {@link Disk.partitionDisk}: no fields. */
export type PartitionDiskResponse = EmptyResponse;

/** Request of {@link Disk.rescan}: no fields. */
export type RescanRequest = Record<string, never>;
/** Response of {@link Disk.rescan}: no fields. */
export type RescanResponse = EmptyResponse;

/** Request of {@link Disk.listDiskIds}: no fields. */
export type ListDiskIdsRequest = Record<string, never>;

/** The identifiers of one disk. */
export interface DiskIds {
  /**
   * The first device-associated binary or ASCII identifier of SCSI VPD page 0x83, as upstream
   * defines it: ASCII as is (untrimmed, e.g. `Google  persistent-disk-0`), binary as lowercase hex;
   * `""` when the disk reports none.
   */
  readonly page83: string;
  /** `MSFT_Disk.SerialNumber` with leading and trailing whitespace removed; `""` when absent. */
  readonly serialNumber: string;
  /**
   * `MSFT_Disk.IsBoot` or `IsSystem`: the disk Windows booted from or keeps its system on, which
   * no driver's volume is.
   */
  readonly isSystemDisk: boolean;
}

/** A disk whose identifiers could not be read (the others are still listed). */
export interface DiskIdsError {
  /** The disk number (from the device when it could be opened, else from Get-Disk); null if unknown. */
  readonly diskNumber: number | null;
  /** The device path that was opened (`MSFT_Disk.Path`). */
  readonly path: string;
  /** The serial number, normalised like {@link DiskIds.serialNumber}. */
  readonly serialNumber: string;
  /** Why reading failed, e.g. `Incorrect function.` (from Windows, so possibly localised). */
  readonly message: string;
  /** The Win32 error code of the failed call (e.g. 1 for ERROR_INVALID_FUNCTION), when there is one. */
  readonly win32Error: number | null;
}

/** Response of {@link Disk.listDiskIds}. */
export interface ListDiskIdsResponse {
  /** Disk number (the device's own `STORAGE_DEVICE_NUMBER`, as upstream) → identifiers. */
  readonly diskIds: ReadonlyMap<number, DiskIds>;
  /** Disks that could not be read; they are absent from `diskIds`. Empty when all were read. */
  readonly errors: readonly DiskIdsError[];
}

/** Request of {@link Disk.getDiskStats}. */
export type GetDiskStatsRequest = DiskNumberRequest;
/** Response of {@link Disk.getDiskStats}. */
export interface GetDiskStatsResponse {
  /**
   * The disk size in bytes (`MSFT_Disk.Size`), exact: a `number` up to 2^53 − 1 (8 PiB), a
   * `bigint` beyond, as `@csi-proxy/exec` (and `@csi-proxy/volume`) represent UInt64 values.
   */
  readonly totalBytes: number | bigint;
}

/** Request of {@link Disk.setDiskState}. */
export interface SetDiskStateRequest extends DiskNumberRequest {
  /** `true` brings the disk online; `false` takes it offline. */
  readonly isOnline: boolean;
  /**
   * With `isOnline: true`, also clear the read-only attribute (`Set-Disk -IsReadOnly $false`),
   * e.g. for a disk that SAN policy brought up offline and read-only. Default `false`: the
   * attribute stays as the storage side set it (a read-only attachment stays read-only). Not
   * allowed with `isOnline: false`.
   */
  readonly clearReadOnly?: boolean;
}
/** Response of {@link Disk.setDiskState}. */
export interface SetDiskStateResponse {
  /** `MSFT_Disk.IsReadOnly` after the call (before it, for `isOnline: false`). */
  readonly isReadOnly: boolean;
}

/** Request of {@link Disk.getDiskState}. */
export type GetDiskStateRequest = DiskNumberRequest;
/** Response of {@link Disk.getDiskState}. */
export interface GetDiskStateResponse {
  /** `true` unless the disk is offline (`MSFT_Disk.IsOffline`). */
  readonly isOnline: boolean;
}

/** Request of {@link Disk.getDiskNumberByPage83}. */
export interface GetDiskNumberByPage83Request {
  /** The page-83 identifier exactly as {@link Disk.listDiskIds} reports it. */
  readonly page83: string;
}
/** Response of {@link Disk.getDiskNumberByPage83}. */
export interface GetDiskNumberByPage83Response {
  /** The Windows disk number of the matching disk. */
  readonly diskNumber: number;
}
