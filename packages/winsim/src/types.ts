import type { IscsiState } from "./iscsi.js";
import type { GuidSeedState } from "./seeded-guid.js";
import type { SmbState } from "./smb.js";
import type { SystemState } from "./system.js";
/** One VPD page 0x83 identifier as state.json stores it (code set 1 binary, 2 ASCII). */
export interface DeviceIdState {
  codeSet: number;
  type: number;
  association: number;
  /** The identifier bytes as hex. */
  hex: string;
}

/** A disk in state.json: raw CIM codes, as docs/design/winsim.md describes. */
export interface DiskState {
  number: number;
  size: number;
  /** 0 RAW, 1 MBR, 2 GPT. */
  partitionStyle: number;
  busType: number;
  location: string | null;
  path: string;
  friendlyName: string;
  model: string | null;
  manufacturer: string | null;
  serialNumber: string | null;
  uniqueId: string;
  uniqueIdFormat: number;
  firmwareVersion: string;
  logicalSectorSize: number;
  physicalSectorSize: number;
  isOffline: boolean;
  offlineReason: number | null;
  isReadOnly: boolean;
  /** Set only for a disk whose read-only the storage side enforces (`DiskSpec.writeProtected`). */
  writeProtected?: boolean;
  isSystem: boolean;
  isBoot: boolean;
  isClustered: boolean;
  signature: number | null;
  guid: string | null;
  deviceIds: DeviceIdState[];
  deviceIdError: string | null;
  /** 0 Unknown, 1 Thin, 2 Fixed. */
  provisioningType: number;
  /**
   * The size the Storage provider's cache still holds after the disk grew on the storage side
   * (`size` is the new one): Get-Disk, Get-PartitionSupportedSize and Resize-Partition see this
   * until `Update-HostStorageCache` removes it. Absent: the cache is current.
   */
  cachedSize?: number;
}

/** A partition in state.json (MSFT_Partition fields; access paths as Linux folders). */
export interface PartitionState {
  diskNumber: number;
  partitionNumber: number;
  offset: number;
  size: number;
  gptType: string | null;
  mbrType: number | null;
  driveLetter: string | null;
  guid: string | null;
  /** Linux mount folders with a trailing '/'. */
  accessPaths: string[];
  /** The volume GUID (no braces), or null for an MSR partition. */
  volume: string | null;
  isReadOnly: boolean;
  isOffline: boolean;
  isHidden: boolean;
  isActive: boolean;
}

/** A volume in state.json (MSFT_Volume fields); its files live in `sim.volumeDir(guid)`. */
export interface VolumeState {
  guid: string;
  /** "" (RAW), "NTFS", "ReFS", "FAT32", "FAT", "exFAT". */
  fileSystem: string;
  label: string;
  allocationUnitSize: number;
  size: number;
  /** Bytes counted as used besides the files in volumes/Volume{guid}/. */
  baseUsed: number;
}

/**
 * The whole simulated host, as `sim.state()` reads it from state.json: Storage (raw CIM codes, as
 * docs/design/winsim.md describes), and the SMB, iSCSI and system parts when the scenario has them.
 */
export interface SimState {
  /** The state format's version. */
  version: 1;
  /** Every disk (MSFT_Disk), system disk included. */
  disks: DiskState[];
  /** Every partition (MSFT_Partition) of every disk. */
  partitions: PartitionState[];
  /** Every volume (MSFT_Volume), including those of offline disks, which Get-Volume hides. */
  volumes: VolumeState[];
  /** SMB servers, shares and global mappings, when the scenario has `smb`. */
  smb?: SmbState;
  /** iSCSI servers, portals, sessions and the initiator, when the scenario has `iscsi`. */
  iscsi?: IscsiState;
  /** BIOS and services; absent when the scenario has no `system` (the module then uses module/system/defaults.json). */
  system?: SystemState;
  /** `Get-Item` answers as this PowerShell does; absent means "5.1". */
  powershell?: "5.1" | "7";
  /** With `ScenarioSpec.seed`: the seed and the index of the next GUID `New-Partition` draws. */
  seed?: GuidSeedState;
}

/** One simulated cmdlet call, from calls.jsonl. */
export interface CallLogEntry {
  seq: number;
  pid: number;
  command: string;
  /** Bound parameters except piped CIM objects. */
  parameters: Record<string, unknown>;
  /** Identity of a piped disk, partition or volume (DiskNumber, PartitionNumber, Offset, UniqueId). */
  target: Record<string, unknown>;
  /** "ok", "error" (the cmdlet wrote an error), "fault" (an injected error) or "killed". */
  outcome: "ok" | "error" | "fault" | "killed";
  /** Unix milliseconds. */
  start: number;
  end: number;
}

/** The error an `error` fault raises: id, category, exception type and CIM codes (see `FaultSpec`). */
export interface FaultError {
  message?: string;
  errorId?: string;
  category?: string;
  exceptionType?: string;
  nativeErrorCode?: string;
  statusCode?: number;
  /** Thrown (ThrowTerminatingError) rather than written: `-ErrorAction` cannot silence it. */
  terminating?: boolean;
}

/** The streams a `noise` fault writes to before the call runs. */
export type NoiseKind = "warning" | "progress" | "host" | "verbose" | "information";

/** An injected fault (faults.json), checked by every simulated cmdlet on entry. */
export interface FaultSpec {
  /** A cmdlet name, or "*". */
  command: string;
  /** Bound parameters (or piped-object identity) that must match, compared as strings. */
  match?: Record<string, string | number | boolean>;
  /** How many calls it applies to; -1 = always. Default 1. */
  times?: number;
  /**
   * `delay` sleeps before the cmdlet acts; `hangAfter` lets it act (state changed, call logged)
   * and then sleeps before it answers, as a WMI method can finish on Windows after its caller
   * was cancelled.
   */
  action: "error" | "delay" | "hangAfter" | "kill" | "noise" | "garbage";
  error?: FaultError;
  /** `delay` and `hangAfter`: how long to sleep. Default 1000. */
  delayMs?: number;
  /**
   * `delay` and `hangAfter`: instead of sleeping `delayMs`, hold the call until the gate is
   * released, marking the gate met when a call reaches it. Set by `sim.block()`, which hands out
   * the gate's `met()` and `release()`.
   */
  gate?: string;
  noise?: NoiseKind[];
  /** garbage: the text written to stdout. */
  text?: string;
}
