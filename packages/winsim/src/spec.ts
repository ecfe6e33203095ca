import type { IscsiSpec } from "./iscsi.js";
import type { SmbSpec } from "./smb.js";
import type { SystemSpec } from "./system.js";
import type { DeviceIdState } from "./types.js";

/** Bus types by the name Get-Disk shows (MSFT_Disk.BusType). */
export const busTypes = {
  Unknown: 0,
  SCSI: 1,
  ATAPI: 2,
  ATA: 3,
  "1394": 4,
  SSA: 5,
  "Fibre Channel": 6,
  USB: 7,
  RAID: 8,
  iSCSI: 9,
  SAS: 10,
  SATA: 11,
  SD: 12,
  MMC: 13,
  Virtual: 14,
  "File Backed Virtual": 15,
  "Storage Spaces": 16,
  NVMe: 17,
} as const;

/** A bus type by name (`SAS`, `iSCSI`, `NVMe`, ...), the keys of `busTypes`. */
export type BusTypeName = keyof typeof busTypes;

/** MSFT_Disk.OfflineReason by name. */
export const offlineReasons = {
  Policy: 1,
  "Redundant Path": 2,
  Snapshot: 3,
  Collision: 4,
  "Resource Exhaustion": 5,
  "Critical Write Failures": 6,
  "Data Integrity Scan Required": 7,
} as const;

/** An offline reason by name (`Policy`, `Collision`, ...), the keys of `offlineReasons`. */
export type OfflineReasonName = keyof typeof offlineReasons;

/** A volume's file system as `Get-Volume` names it; `""` is RAW (unformatted). */
export type FileSystemName = "" | "NTFS" | "ReFS" | "FAT32" | "FAT" | "exFAT";

/**
 * The page 0x83 identifiers IOCTL_STORAGE_QUERY_PROPERTY returns: an NAA or EUI-64 id (binary),
 * a T10 vendor id (ASCII, e.g. GCE's `Google  persistent-disk-0`), or the raw list.
 */
export type Page83Spec =
  | { readonly naa: string }
  | { readonly eui64: string }
  | { readonly ascii: string }
  | { readonly vendorSpecificHex: string }
  | readonly DeviceIdState[];

/** A partition of a scenario disk, with its volume (file system, label, letter, mount folders). */
export interface PartitionSpec {
  /** Bytes, rounded up to 1 MiB. Default: the rest of the disk. */
  size?: number;
  /** Default "NTFS"; "" leaves the volume RAW. */
  fileSystem?: FileSystemName;
  label?: string;
  driveLetter?: string;
  /** Mount folders: absolute, or relative to `sim.root`. Each becomes a link to the volume. */
  accessPaths?: readonly string[];
  /** Bytes counted as used besides the files written into the volume. */
  usedBytes?: number;
  /** Volume GUID without braces. Default: random (MBR: derived from signature and offset). */
  volumeGuid?: string;
  /** GPT type GUID with braces. Default: basic data. */
  gptType?: string;
  /** MBR partition id. Default 7 (IFS) when formatted, 6 (Huge) when RAW. */
  mbrType?: number;
  isHidden?: boolean;
}

/** A disk of a scenario; everything but `number` has a default: 10 GiB, SAS, RAW unless it has partitions (then GPT). */
export interface DiskSpec {
  /** Default: the next free number. */
  number?: number;
  /** Bytes. Default 10 GiB. */
  size?: number;
  /** Default "SAS" (a Hyper-V/Azure SCSI disk). */
  busType?: BusTypeName | number;
  /** SCSI LUN: sets the default Location `PCI Slot 3 : Adapter 0 : Port 0 : Target 0 : LUN <lun>`. */
  lun?: number;
  /** Overrides the Location string; null as for virtual disks. */
  location?: string | null;
  /** Default "RAW", or "GPT" when partitions are given. */
  partitionStyle?: "RAW" | "MBR" | "GPT";
  partitions?: readonly PartitionSpec[];
  /** GPT: add the Microsoft Reserved partition before the data partitions. Default true. */
  msr?: boolean;
  offline?: boolean;
  offlineReason?: OfflineReasonName | number;
  readOnly?: boolean;
  /**
   * The storage side enforces read-only (a LUN exported read-only, a read-only or multi-attach
   * cloud attachment): the disk is read-only and `Set-Disk -IsReadOnly $false` and
   * `Initialize-Disk` fail with StorageWMI 41002. Implies `readOnly`.
   */
  writeProtected?: boolean;
  page83?: Page83Spec;
  /** Makes the page 83 IOCTL fail with this Win32 message, e.g. "Incorrect function.". */
  deviceIdError?: string;
  serialNumber?: string | null;
  uniqueId?: string;
  uniqueIdFormat?: number;
  friendlyName?: string;
  model?: string | null;
  manufacturer?: string | null;
  path?: string;
  signature?: number;
  guid?: string;
  isSystem?: boolean;
  isBoot?: boolean;
  provisioningType?: number;
}

/** A simulated host. */
export interface ScenarioSpec {
  /**
   * Disk 0 holding the C: volume (AccessPaths `C:\`, `/` and its GUID path). Default true;
   * a DiskSpec customises it; false leaves it out.
   */
  systemDisk?: boolean | DiskSpec;
  disks?: readonly DiskSpec[];
  /** SMB servers, shares and global mappings. */
  smb?: SmbSpec;
  /** iSCSI portals, targets (with their LUNs) and initiator settings. */
  iscsi?: IscsiSpec;
  /** BIOS and services. */
  system?: SystemSpec;
  /**
   * Which PowerShell's `Get-Item` shapes the host answers with: "5.1" (default; the library's
   * default executable, powershell.exe) or "7" (pwsh). See docs/design/winsim.md, "Why Get-Item is proxied".
   */
  powershell?: "5.1" | "7";
  /**
   * Makes the host's GUIDs stable: volume, partition and disk GUIDs and MBR signatures are drawn
   * from this seed instead of at random, and so are the volume GUIDs of partitions created later
   * (`New-Partition`). The same seed and the same calls give the same volume ids on every run.
   */
  seed?: string;
}
