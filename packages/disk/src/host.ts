import {
  noCallContext,
  type CallContext,
  type Params,
  type PowerShell,
  type Script,
} from "@csi-proxy/exec";
import { DiskNotFoundError, isDiskQueryMiss } from "./errors.js";
import { listDiskIdsScript } from "./ids-script.js";
import { parseCount, parseDisk, parseDiskIds, parseLocations } from "./parse.js";
import {
  countDataPartitionsScript,
  createPartitionScript,
  getDiskScript,
  initializeDiskScript,
  listLocationsScript,
  rescanScript,
  setOfflineScript,
  setReadOnlyScript,
} from "./scripts.js";

/** Every script the disk group runs, by name, for audits and static checks (e.g. PowerShell 5.1 syntax). */
export const diskScripts: Readonly<Record<string, Script>> = Object.freeze({
  listLocations: listLocationsScript,
  rescan: rescanScript,
  getDisk: getDiskScript,
  initializeDisk: initializeDiskScript,
  countDataPartitions: countDataPartitionsScript,
  createPartition: createPartitionScript,
  setOffline: setOfflineScript,
  setReadOnly: setReadOnlyScript,
  listDiskIds: listDiskIdsScript,
});

/** A disk's Number and raw Location, as the host reports them (either may be missing). */
export interface HostDiskLocation {
  /** `MSFT_Disk.Number`; null for a disk without one (e.g. a cluster disk owned elsewhere). */
  readonly number: number | null;
  /** `MSFT_Disk.Location` as is; null when Windows reports none. */
  readonly location: string | null;
}

/** The state of one disk. */
export interface HostDisk {
  /** The Windows disk number. */
  readonly number: number;
  /** Raw `MSFT_Disk.PartitionStyle`: 0 RAW, 1 MBR, 2 GPT. */
  readonly partitionStyle: number;
  /** `MSFT_Disk.IsOffline`. */
  readonly isOffline: boolean;
  /** `MSFT_Disk.IsReadOnly`. */
  readonly isReadOnly: boolean;
  /** Bytes: `number` when safe, `bigint` beyond 2^53 − 1. */
  readonly size: number | bigint;
}

/** One disk's identifiers as read on the host: `page83` or `error` is set. */
export interface HostDiskId {
  /** The device number (IOCTL) when the device could be opened, else Get-Disk's Number. */
  readonly number: number | null;
  /** `MSFT_Disk.Path`, the device path the IOCTLs open. */
  readonly path: string;
  /** `MSFT_Disk.SerialNumber` untouched (may be null or blank-padded). */
  readonly serialNumber: string | null;
  /** The page-83 identifier by upstream's rule (`""` when none); null when the device could not be read. */
  readonly page83: string | null;
  /** Why the device could not be read, with the Win32 error code when known; null on success. */
  readonly error: {
    /** The failure's message (localised on Windows). */
    readonly message: string;
    /** The Win32 error code, e.g. 1 for "Incorrect function."; null when unknown. */
    readonly win32Error: number | null;
  } | null;
}

/**
 * The host operations {@link Disk} is built from: one method per host call, no policy. The
 * default implementation ({@link createPowerShellDiskHost}) runs Storage cmdlets through
 * PowerShell; tests and other back ends can supply their own. Methods naming a disk reject with
 * a {@link DiskNotFoundError} when it does not exist. Every method's last parameter, `context`, is
 * the calling method's deadline and signal (`noCallContext` when left out).
 */
export interface DiskHost {
  /** Number and Location of every disk. */
  listDiskLocations(context?: CallContext): Promise<readonly HostDiskLocation[]>;
  /** Refreshes the host's cached view of disks (`Update-HostStorageCache`). */
  rescan(context?: CallContext): Promise<void>;
  /** The state of one disk. */
  getDisk(diskNumber: number, context?: CallContext): Promise<HostDisk>;
  /** Initialises a RAW disk as GPT. */
  initializeDisk(diskNumber: number, context?: CallContext): Promise<void>;
  /** How many partitions of the disk are not the Microsoft Reserved partition. */
  countDataPartitions(diskNumber: number, context?: CallContext): Promise<number>;
  /** Creates one partition using all free space. */
  createPartition(diskNumber: number, context?: CallContext): Promise<void>;
  /** Sets `IsOffline`. */
  setOffline(diskNumber: number, isOffline: boolean, context?: CallContext): Promise<void>;
  /** Sets `IsReadOnly`. */
  setReadOnly(diskNumber: number, isReadOnly: boolean, context?: CallContext): Promise<void>;
  /** Identifiers of every disk, read in one pass; unreadable disks carry an `error`. */
  listDiskIds(context?: CallContext): Promise<readonly HostDiskId[]>;
}

/**
 * The PowerShell-backed {@link DiskHost}: every method is one call of a constant script.
 *
 * @example
 * ```ts
 * const host = createPowerShellDiskHost(createPowerShell());
 * const disk = new Disk({ host });
 * ```
 */
export function createPowerShellDiskHost(shell: PowerShell): DiskHost {
  // Every script draws on the calling method's deadline; alone, a host call has none.
  function run(script: Script, params: Params, context: CallContext | undefined): Promise<unknown> {
    return shell.run(script, params, (context ?? noCallContext).runOptions());
  }

  async function onDisk(
    script: Script,
    diskNumber: number,
    params: Params,
    context: CallContext | undefined,
  ): Promise<unknown> {
    try {
      return await run(script, { Number: diskNumber, ...params }, context);
    } catch (error) {
      if (isDiskQueryMiss(error)) throw new DiskNotFoundError(diskNumber, { cause: error });
      throw error;
    }
  }

  return {
    async listDiskLocations(context) {
      return parseLocations(await run(listLocationsScript, {}, context));
    },
    async rescan(context) {
      await run(rescanScript, {}, context);
    },
    async getDisk(diskNumber, context) {
      return parseDisk(await onDisk(getDiskScript, diskNumber, {}, context));
    },
    async initializeDisk(diskNumber, context) {
      await onDisk(initializeDiskScript, diskNumber, {}, context);
    },
    async countDataPartitions(diskNumber, context) {
      return parseCount(await onDisk(countDataPartitionsScript, diskNumber, {}, context));
    },
    async createPartition(diskNumber, context) {
      await onDisk(createPartitionScript, diskNumber, {}, context);
    },
    async setOffline(diskNumber, isOffline, context) {
      await onDisk(setOfflineScript, diskNumber, { IsOffline: isOffline }, context);
    },
    async setReadOnly(diskNumber, isReadOnly, context) {
      await onDisk(setReadOnlyScript, diskNumber, { IsReadOnly: isReadOnly }, context);
    },
    async listDiskIds(context) {
      return parseDiskIds(await run(listDiskIdsScript, {}, context));
    },
  };
}
