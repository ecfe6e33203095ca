import {
  noCallContext,
  PowerShellError,
  type CallContext,
  type Params,
  type PowerShell,
  type Script,
} from "@csi-proxy/exec";
import { DiskNotFoundError, isDiskQueryMiss } from "./errors.js";
import { listDiskIdsScript } from "./ids-script.js";
import {
  parseDisk,
  parseDiskIds,
  parseDiskState,
  parseLocations,
  parsePartitionOutcome,
} from "./parse.js";
import {
  getDiskScript,
  listLocationsScript,
  partitionDiskScript,
  rescanScript,
  setOfflineScript,
  setOnlineScript,
} from "./scripts.js";

/** Every script the disk group runs, by name, for audits and static checks (e.g. PowerShell 5.1 syntax). */
export const diskScripts: Readonly<Record<string, Script>> = Object.freeze({
  listLocations: listLocationsScript,
  rescan: rescanScript,
  getDisk: getDiskScript,
  partitionDisk: partitionDiskScript,
  setOnline: setOnlineScript,
  setOffline: setOfflineScript,
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

/** What {@link DiskHost.partitionDisk} did. */
export interface HostPartitionOutcome {
  /** The disk was RAW and this call initialised it as GPT (which adds the MSR partition). */
  readonly initialized: boolean;
  /** The disk had no data partition and this call created one over all free space. */
  readonly created: boolean;
}

/** A disk's online state after {@link DiskHost.setOnline} or {@link DiskHost.setOffline}. */
export interface HostDiskState {
  /** `MSFT_Disk.IsOffline`, as read after the last change. */
  readonly isOffline: boolean;
  /** `MSFT_Disk.IsReadOnly`, as read after the last change. */
  readonly isReadOnly: boolean;
  /**
   * Why clearing read-only failed, when it was asked for, tried and refused by Windows (the
   * disk is online by then); null otherwise. For the PowerShell host a `PowerShellError` whose
   * `record` is the refusal's error record.
   */
  readonly readOnlyRefusal: Error | null;
}

/** One disk's identifiers as read on the host: `page83` or `error` is set. */
export interface HostDiskId {
  /** The device number (IOCTL) when the device could be opened, else Get-Disk's Number. */
  readonly number: number | null;
  /** `MSFT_Disk.Path`, the device path the IOCTLs open. */
  readonly path: string;
  /** `MSFT_Disk.SerialNumber` untouched (may be null or blank-padded). */
  readonly serialNumber: string | null;
  /** `MSFT_Disk.IsBoot` or `IsSystem`: the disk Windows started from or holds its system on. */
  readonly isSystemDisk?: boolean;
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
  /**
   * Makes the disk hold one data partition, observing, deciding and acting in one step: reads the
   * disk; initialises it as GPT when it is RAW (a concurrent initialisation, StorageWMI 41001, is
   * tolerated); creates one partition over all free space unless a partition other than the
   * Microsoft Reserved one exists (StorageWMI 42002 is tolerated when a data partition exists after
   * it). Idempotent.
   */
  partitionDisk(diskNumber: number, context?: CallContext): Promise<HostPartitionOutcome>;
  /**
   * Brings the disk online when it is offline, then re-reads it; with `clearReadOnly`, clears
   * `IsReadOnly` when set, then re-reads it. A refused clear is reported as `readOnlyRefusal`,
   * not thrown; other failures reject.
   */
  setOnline(
    diskNumber: number,
    clearReadOnly: boolean,
    context?: CallContext,
  ): Promise<HostDiskState>;
  /** Takes the disk offline when it is online; `IsReadOnly` is left alone and reported. */
  setOffline(diskNumber: number, context?: CallContext): Promise<HostDiskState>;
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
    async partitionDisk(diskNumber, context) {
      return parsePartitionOutcome(await onDisk(partitionDiskScript, diskNumber, {}, context));
    },
    async setOnline(diskNumber, clearReadOnly, context) {
      const started = Date.now();
      const params = { ClearReadOnly: clearReadOnly };
      const state = parseDiskState(await onDisk(setOnlineScript, diskNumber, params, context));
      const record = state.readOnlyRefusal;
      // Shaped as if the clearing had thrown, so the refusal's record stays reachable as a cause.
      const readOnlyRefusal =
        record === null
          ? null
          : new PowerShellError(`${setOnlineScript.name} failed: ${record.message}`, {
              code: "COMMAND_FAILED",
              scriptName: setOnlineScript.name,
              mode: shell.mode,
              durationMs: Date.now() - started,
              record,
            });
      return { isOffline: state.isOffline, isReadOnly: state.isReadOnly, readOnlyRefusal };
    },
    async setOffline(diskNumber, context) {
      const state = parseDiskState(await onDisk(setOfflineScript, diskNumber, {}, context));
      return { isOffline: state.isOffline, isReadOnly: state.isReadOnly, readOnlyRefusal: null };
    },
    async listDiskIds(context) {
      return parseDiskIds(await run(listDiskIdsScript, {}, context));
    },
  };
}
