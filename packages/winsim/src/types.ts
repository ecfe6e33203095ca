import type { IscsiState } from "./iscsi.js";
import type { GuidSeedState } from "./seeded-guid.js";
import type { SmbState } from "./smb.js";
import type { SystemState } from "./system.js";
/** One VPD page 0x83 identifier as state.json stores it (code set 1 binary, 2 ASCII). */
export interface DeviceIdState {
  /** The code set: 1 binary (shown as hex), 2 ASCII. */
  codeSet: number;
  /** The identifier type: 0 vendor specific, 1 T10 vendor id, 2 EUI-64, 3 NAA. */
  type: number;
  /** What it identifies: 0 the logical unit, the only association the page-83 lookup reads. */
  association: number;
  /** The identifier bytes as hex. */
  hex: string;
}

/** A disk in state.json: raw CIM codes, as docs/design/winsim.md describes. */
export interface DiskState {
  /** The disk number (MSFT_Disk.Number). */
  number: number;
  /** The disk's size in bytes; while `cachedSize` is set, Storage cmdlets show that instead. */
  size: number;
  /** 0 RAW, 1 MBR, 2 GPT. */
  partitionStyle: number;
  /** MSFT_Disk.BusType code; `busTypes` names them. */
  busType: number;
  /** MSFT_Disk.Location, e.g. `PCI Slot 3 : Adapter 0 : Port 0 : Target 0 : LUN 3`, or null. */
  location: string | null;
  /** The device path (MSFT_Disk.Path), which the page-83 IOCTL opens. */
  path: string;
  /** MSFT_Disk.FriendlyName. */
  friendlyName: string;
  /** MSFT_Disk.Model; null for none. */
  model: string | null;
  /** MSFT_Disk.Manufacturer; null for none. */
  manufacturer: string | null;
  /** MSFT_Disk.SerialNumber; null for none. */
  serialNumber: string | null;
  /** MSFT_Disk.UniqueId. */
  uniqueId: string;
  /** MSFT_Disk.UniqueIdFormat code (e.g. 0 Vendor Specific, 2 EUI64, 3 FCPH Name). */
  uniqueIdFormat: number;
  /** MSFT_Disk.FirmwareVersion. */
  firmwareVersion: string;
  /** MSFT_Disk.LogicalSectorSize in bytes. */
  logicalSectorSize: number;
  /** MSFT_Disk.PhysicalSectorSize in bytes. */
  physicalSectorSize: number;
  /** Whether the disk is offline. */
  isOffline: boolean;
  /** MSFT_Disk.OfflineReason code (`offlineReasons` names them); null for none. */
  offlineReason: number | null;
  /** Whether the disk is read-only. */
  isReadOnly: boolean;
  /** Set only for a disk whose read-only the storage side enforces (`DiskSpec.writeProtected`). */
  writeProtected?: boolean;
  /** Whether the disk holds the system partition (MSFT_Disk.IsSystem). */
  isSystem: boolean;
  /** Whether the disk is the boot disk (MSFT_Disk.IsBoot). */
  isBoot: boolean;
  /** Whether the disk belongs to a failover cluster (MSFT_Disk.IsClustered). */
  isClustered: boolean;
  /** The MBR disk signature (MSFT_Disk.Signature); null when the disk has none. */
  signature: number | null;
  /** The GPT disk GUID with braces (MSFT_Disk.Guid); null when the disk has none. */
  guid: string | null;
  /** The page 0x83 identifiers the disk-ID IOCTL returns, in order. */
  deviceIds: DeviceIdState[];
  /** Makes the page-83 IOCTL fail with this Win32 message; null: it succeeds. */
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
  /** The number of the disk it is on. */
  diskNumber: number;
  /** Its number on the disk: 1, 2, ... in offset order. */
  partitionNumber: number;
  /** Its offset from the start of the disk in bytes. */
  offset: number;
  /** Its size in bytes. */
  size: number;
  /** The GPT partition type GUID with braces; null on an MBR disk. */
  gptType: string | null;
  /** The MBR partition id (e.g. 7 IFS); null on a GPT disk. */
  mbrType: number | null;
  /** Its drive letter, upper-case; null when it has none. */
  driveLetter: string | null;
  /** The GPT partition GUID with braces; null on an MBR disk. */
  guid: string | null;
  /** Linux mount folders with a trailing '/'. */
  accessPaths: string[];
  /** The volume GUID (no braces), or null for an MSR partition. */
  volume: string | null;
  /** Whether the partition itself is read-only (a read-only disk's partitions show so too). */
  isReadOnly: boolean;
  /** Whether the partition itself is offline (an offline disk's partitions show as offline too). */
  isOffline: boolean;
  /** Whether the partition is hidden (MSFT_Partition.IsHidden). */
  isHidden: boolean;
  /** Whether it is the active (bootable) partition of an MBR disk. */
  isActive: boolean;
}

/** A volume in state.json (MSFT_Volume fields); its files live in `sim.volumeDir(guid)`. */
export interface VolumeState {
  /** The volume GUID without braces; the volume's id is `\\?\Volume{guid}\`. */
  guid: string;
  /** "" (RAW), "NTFS", "ReFS", "FAT32", "FAT", "exFAT". */
  fileSystem: string;
  /** The file-system label; `""` for none. */
  label: string;
  /** The cluster size in bytes; 0 for a RAW volume. */
  allocationUnitSize: number;
  /** The volume's size in bytes. */
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
  /** The call's sequence number, from 1 (again after `clearCalls()`), gapless across processes. */
  seq: number;
  /** The id of the PowerShell process that made the call. */
  pid: number;
  /** The cmdlet's name, e.g. `Get-Disk`. */
  command: string;
  /** Bound parameters except piped CIM objects. */
  parameters: Record<string, unknown>;
  /** Identity of a piped disk, partition or volume (DiskNumber, PartitionNumber, Offset, UniqueId). */
  target: Record<string, unknown>;
  /** "ok", "error" (the cmdlet wrote an error), "fault" (an injected error) or "killed". */
  outcome: "ok" | "error" | "fault" | "killed";
  /** Unix milliseconds. */
  start: number;
  /** Unix milliseconds. */
  end: number;
}

/** The error an `error` fault raises: id, category, exception type and CIM codes (see `FaultSpec`). */
export interface FaultError {
  /** The error message. Default `Failed`. */
  message?: string;
  /** The FullyQualifiedErrorId without the function name PowerShell appends. Default `StorageWMI 4`. */
  errorId?: string;
  /** The ErrorCategory name. Default `NotSpecified`. */
  category?: string;
  /** The exception's type name. Default `Microsoft.Management.Infrastructure.CimException`. */
  exceptionType?: string;
  /** A CimException's NativeErrorCode name (MI_Result). Default `Failed`. */
  nativeErrorCode?: string;
  /**
   * A CimException's StatusCode, or a Win32Exception's native code. Default: the MI_Result
   * number of `nativeErrorCode` (Win32Exception: 1).
   */
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
  /** `error`: the error raised instead of the call. */
  error?: FaultError;
  /** `delay` and `hangAfter`: how long to sleep. Default 1000. */
  delayMs?: number;
  /**
   * `delay` and `hangAfter`: instead of sleeping `delayMs`, hold the call until the gate is
   * released, marking the gate met when a call reaches it. Set by `sim.block()`, which hands out
   * the gate's `met()` and `release()`.
   */
  gate?: string;
  /** `noise`: the streams written to. Default: all five. */
  noise?: NoiseKind[];
  /** garbage: the text written to stdout. */
  text?: string;
}
