// Friendly reads of a host's raw state (CIM codes, Linux folders with a trailing "/") for tests.
import { busTypes, offlineReasons, type BusTypeName, type OfflineReasonName } from "./spec.js";
import type { DiskState, PartitionState, SimState } from "./types.js";

/** MSFT_Disk.PartitionStyle by name. */
export const partitionStyles = {
  /** Not initialised: the disk has no partition table. */
  RAW: 0,
  /** A Master Boot Record partition table. */
  MBR: 1,
  /** A GUID Partition Table. */
  GPT: 2,
} as const;

/** A partition style by name, the keys of {@link partitionStyles}. */
export type PartitionStyleName = keyof typeof partitionStyles;

/** A disk as `Get-Disk` names its codes. */
export interface DiskView {
  /** The disk number. */
  readonly number: number;
  /** The disk's size in bytes. */
  readonly size: number;
  /** `RAW`, `MBR` or `GPT`. */
  readonly partitionStyle: PartitionStyleName;
  /** What `Get-Disk` shows as OperationalStatus. */
  readonly operationalStatus: "Online" | "Offline";
  /** Why it is offline; null when online. */
  readonly offlineReason: OfflineReasonName | null;
  /** The bus type as `Get-Disk` names it, e.g. `SAS`. */
  readonly busType: BusTypeName;
  /** Whether the disk is read-only. */
  readonly isReadOnly: boolean;
}

/** A volume with the partition holding it. */
export interface VolumeView {
  /** The GUID, without braces. */
  readonly guid: string;
  /** `\\?\Volume{guid}\`, the id the Volume group takes and returns. */
  readonly volumeId: string;
  /** The number of the disk holding its partition. */
  readonly diskNumber: number;
  /** The number of its partition on that disk. */
  readonly partitionNumber: number;
  /** As `Get-Volume` names it: `"RAW"` when unformatted, else `NTFS`, `ReFS`, ... */
  readonly fileSystem: string;
  /** The volume's label; `""` for none. */
  readonly label: string;
  /** The volume's size in bytes. */
  readonly size: number;
  /** The partition's drive letter; null when it has none. */
  readonly driveLetter: string | null;
  /** The folders it is mounted at, without the trailing "/" (`"/"` for the system volume). */
  readonly mounts: readonly string[];
}

/** A logged-in iSCSI session. */
export interface IscsiSessionView {
  /** The target's IQN, lower-cased as `Get-IscsiSession` reports it. */
  readonly iqn: string;
  /** The portals its connections go through. */
  readonly portals: readonly {
    /** The portal's address. */
    readonly address: string;
    /** The portal's TCP port. */
    readonly port: number;
  }[];
  /** `NONE`, `ONEWAYCHAP` or `MUTUALCHAP`. */
  readonly authenticationType: string;
  /** Whether Windows logs in again at boot (a persistent login). */
  readonly isPersistent: boolean;
  /** The disk numbers of its LUNs. */
  readonly diskNumbers: readonly number[];
}

function nameOf<T extends Record<string, number>>(table: T, code: number): keyof T {
  const name = Object.keys(table).find((key) => table[key] === code);
  if (name === undefined) throw new RangeError(`No name for code ${code}.`);
  return name;
}

function folder(path: string): string {
  return path === "/" ? path : path.replace(/\/+$/, "");
}

/** The GUID of a volume given as a GUID, `{GUID}` or `\\?\Volume{GUID}\`. */
function guidOf(volume: string): string {
  return (/\{([0-9a-fA-F-]{36})\}/.exec(volume)?.[1] ?? volume).toLowerCase();
}

function viewOfDisk(disk: DiskState): DiskView {
  return {
    number: disk.number,
    size: disk.size,
    partitionStyle: nameOf(partitionStyles, disk.partitionStyle),
    operationalStatus: disk.isOffline ? "Offline" : "Online",
    offlineReason: disk.offlineReason === null ? null : nameOf(offlineReasons, disk.offlineReason),
    busType: nameOf(busTypes, disk.busType),
    isReadOnly: disk.isReadOnly,
  };
}

function viewOfVolume(state: SimState, partition: PartitionState, guid: string): VolumeView {
  const volume = state.volumes.find((v) => v.guid === guid);
  return {
    guid,
    volumeId: `\\\\?\\Volume{${guid}}\\`,
    diskNumber: partition.diskNumber,
    partitionNumber: partition.partitionNumber,
    fileSystem: volume === undefined || volume.fileSystem === "" ? "RAW" : volume.fileSystem,
    label: volume?.label ?? "",
    size: volume?.size ?? partition.size,
    driveLetter: partition.driveLetter,
    mounts: partition.accessPaths.map(folder),
  };
}

/** Disk `number` with named codes; undefined when there is none. */
export function diskOf(state: SimState, number: number): DiskView | undefined {
  const disk = state.disks.find((d) => d.number === number);
  return disk === undefined ? undefined : viewOfDisk(disk);
}

/**
 * The volumes on disk `number`, in partition order. Raw state: an offline disk's volumes are
 * listed too, though `Get-Volume` hides them.
 */
export function volumesOnDisk(state: SimState, number: number): VolumeView[] {
  return state.partitions
    .filter((p) => p.diskNumber === number)
    .sort((a, b) => a.partitionNumber - b.partitionNumber)
    .flatMap((p) => (p.volume === null ? [] : [viewOfVolume(state, p, p.volume)]));
}

/** The folders a volume (GUID, `{GUID}` or `\\?\Volume{GUID}\`) is mounted at; empty when none. */
export function mountsOf(state: SimState, volume: string): string[] {
  const guid = guidOf(volume);
  return state.partitions
    .filter((p) => p.volume?.toLowerCase() === guid)
    .flatMap((p) => p.accessPaths.map(folder));
}

/** Every logged-in iSCSI session; empty when the scenario has no iSCSI. */
export function iscsiSessions(state: SimState): IscsiSessionView[] {
  return (state.iscsi?.sessions ?? []).map((s) => ({
    iqn: s.targetNodeAddress,
    portals: s.connections.map((c) => ({ address: c.targetAddress, port: c.targetPort })),
    authenticationType: s.authenticationType,
    isPersistent: s.isPersistent,
    diskNumbers: s.disks.map((d) => d.diskNumber),
  }));
}
