import type { IscsiSpec } from "./iscsi.js";
import type { SmbSpec } from "./smb.js";
import type { SystemSpec } from "./system.js";
import type { DeviceIdState } from "./types.js";

/** Bus types by the name Get-Disk shows (MSFT_Disk.BusType). */
export const busTypes = {
  /** The bus type is unknown. */
  Unknown: 0,
  /** SCSI. */
  SCSI: 1,
  /** ATAPI. */
  ATAPI: 2,
  /** ATA. */
  ATA: 3,
  /** IEEE 1394 (FireWire). */
  "1394": 4,
  /** Serial Storage Architecture. */
  SSA: 5,
  /** Fibre Channel. */
  "Fibre Channel": 6,
  /** USB. */
  USB: 7,
  /** RAID. */
  RAID: 8,
  /** iSCSI. */
  iSCSI: 9,
  /** Serial Attached SCSI, as Hyper-V and Azure present SCSI disks. */
  SAS: 10,
  /** Serial ATA. */
  SATA: 11,
  /** Secure Digital. */
  SD: 12,
  /** MultiMediaCard. */
  MMC: 13,
  /** Virtual; Windows reserves this value for system use. */
  Virtual: 14,
  /** A file-backed virtual disk, e.g. a mounted VHD. */
  "File Backed Virtual": 15,
  /** A Storage Spaces virtual disk. */
  "Storage Spaces": 16,
  /** NVM Express. */
  NVMe: 17,
} as const;

/** A bus type by name (`SAS`, `iSCSI`, `NVMe`, ...), the keys of `busTypes`. */
export type BusTypeName = keyof typeof busTypes;

/** MSFT_Disk.OfflineReason by name. */
export const offlineReasons = {
  /** Offline by policy: the SAN policy, or an administrator took it offline. */
  Policy: 1,
  /** A redundant path to a disk that is already online (multipath without working MPIO). */
  "Redundant Path": 2,
  /** A snapshot (shadow copy) disk, a clone of a disk that is online. */
  Snapshot: 3,
  /** Its MBR signature or GPT disk GUID is the same as another disk's. */
  Collision: 4,
  /** Not enough resources (capacity) to bring it online. */
  "Resource Exhaustion": 5,
  /** Critical write failures on the disk. */
  "Critical Write Failures": 6,
  /** A data integrity scan is required first. */
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
  | {
      /** An NAA identifier as hex (binary code set). */
      readonly naa: string;
    }
  | {
      /** An EUI-64 identifier as hex (binary code set). */
      readonly eui64: string;
    }
  | {
      /** A T10 vendor identifier as text (ASCII code set). */
      readonly ascii: string;
    }
  | {
      /** A vendor-specific identifier as hex (binary code set). */
      readonly vendorSpecificHex: string;
    }
  | readonly DeviceIdState[];

/** A partition of a scenario disk, with its volume (file system, label, letter, mount folders). */
export interface PartitionSpec {
  /** Bytes, rounded up to 1 MiB. Default: the rest of the disk. */
  size?: number;
  /** Default "NTFS"; "" leaves the volume RAW. */
  fileSystem?: FileSystemName;
  /** The volume's label. Default: none (`""`). */
  label?: string;
  /** The volume's drive letter, e.g. `"E"`. Default: none. */
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
  /** Whether the partition is hidden (MSFT_Partition.IsHidden). Default false. */
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
  /** Its partitions, in order from the start of the disk; ignored when the style is RAW. */
  partitions?: readonly PartitionSpec[];
  /** GPT: add the Microsoft Reserved partition before the data partitions. Default true. */
  msr?: boolean;
  /** Whether the disk is offline. Default: true when `offlineReason` is set, else false. */
  offline?: boolean;
  /**
   * Why an offline disk is offline, by name or MSFT_Disk code; setting it alone makes the disk
   * offline. Default `Policy`.
   */
  offlineReason?: OfflineReasonName | number;
  /** Whether the disk is read-only (MSFT_Disk.IsReadOnly). Default false. */
  readOnly?: boolean;
  /**
   * The storage side enforces read-only (a LUN exported read-only, a read-only or multi-attach
   * cloud attachment): the disk is read-only and `Set-Disk -IsReadOnly $false` and
   * `Initialize-Disk` fail with StorageWMI 41002. Implies `readOnly`.
   */
  writeProtected?: boolean;
  /** The page 83 identifiers the disk-ID IOCTL reads. Default: by bus type (SAS: an NAA id). */
  page83?: Page83Spec;
  /** Makes the page 83 IOCTL fail with this Win32 message, e.g. "Incorrect function.". */
  deviceIdError?: string;
  /** MSFT_Disk.SerialNumber; null for none. Default: by bus type. */
  serialNumber?: string | null;
  /** MSFT_Disk.UniqueId. Default: by bus type (SAS: the NAA id). */
  uniqueId?: string;
  /** MSFT_Disk.UniqueIdFormat code (e.g. 2 EUI64, 3 FCPH Name). Default: by bus type. */
  uniqueIdFormat?: number;
  /** MSFT_Disk.FriendlyName. Default: by bus type, e.g. `Msft Virtual Disk`. */
  friendlyName?: string;
  /** MSFT_Disk.Model; null for none. Default: by bus type. */
  model?: string | null;
  /** MSFT_Disk.Manufacturer; null for none. Default: by bus type. */
  manufacturer?: string | null;
  /** The device path (MSFT_Disk.Path). Default: by bus type and disk number. */
  path?: string;
  /** The MBR disk signature (MBR disks only). Default: random, or drawn from the seed. */
  signature?: number;
  /** The GPT disk GUID with braces (GPT disks only). Default: random, or drawn from the seed. */
  guid?: string;
  /** Whether the disk holds the system partition (MSFT_Disk.IsSystem). Default false. */
  isSystem?: boolean;
  /** Whether the disk is the boot disk (MSFT_Disk.IsBoot). Default false. */
  isBoot?: boolean;
  /** MSFT_Disk.ProvisioningType: 0 Unknown, 1 Thin, 2 Fixed. Default 2. */
  provisioningType?: number;
}

/** A simulated host. */
export interface ScenarioSpec {
  /**
   * Disk 0 holding the C: volume (AccessPaths `C:\`, `/` and its GUID path). Default true;
   * a DiskSpec customises it; false leaves it out.
   */
  systemDisk?: boolean | DiskSpec;
  /** The other disks; one without a `number` takes the lowest free number. */
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
  /**
   * Simulated CIM round-trip time: every Storage, iSCSI and SMB cmdlet and `Get-CimInstance`
   * waits this long (outside the simulator's lock) before it acts, as a call into a WMI provider
   * takes on Windows. A number applies to all of them; `{ defaultMs, commands }` sets some apart
   * (`commands` also reaches the service cmdlets and the proxied `Get-Item`/`Test-Path`, which
   * wait nothing by default). See docs/design/winsim.md, "Simulated CIM latency".
   */
  cimLatencyMs?: number | CimLatencySpec;
}

/** Per-cmdlet simulated latency (see {@link ScenarioSpec.cimLatencyMs}). */
export interface CimLatencySpec {
  /** Milliseconds every CIM cmdlet waits. Default 0. */
  readonly defaultMs?: number;
  /** Milliseconds by command name (`Get-Disk`, `Get-Service`), overriding `defaultMs`. */
  readonly commands?: Readonly<Record<string, number>>;
}
