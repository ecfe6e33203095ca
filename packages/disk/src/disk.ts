import {
  bindHost,
  createKeyedLock,
  CsiProxyError,
  invalidArgument,
  withCallContext,
  type CallContext,
  type CallOptions,
  type HostBinding,
  type HostOptions,
} from "@csi-proxy/exec";
import { DiskReadOnlyError, operationFailed } from "./errors.js";
import { createPowerShellDiskHost, type DiskHost } from "./host.js";
import { normalizeSerialNumber, parseLocation } from "./rules.js";
import type {
  DiskIds,
  DiskIdsError,
  DiskLocation,
  GetDiskNumberByPage83Request,
  GetDiskNumberByPage83Response,
  GetDiskStateRequest,
  GetDiskStateResponse,
  GetDiskStatsRequest,
  GetDiskStatsResponse,
  ListDiskIdsRequest,
  ListDiskIdsResponse,
  ListDiskLocationsRequest,
  ListDiskLocationsResponse,
  PartitionDiskRequest,
  PartitionDiskResponse,
  RescanRequest,
  RescanResponse,
  SetDiskStateRequest,
  SetDiskStateResponse,
} from "./types.js";
import {
  booleanField,
  diskNumber,
  optionalBooleanField,
  parsePage83Id,
  requestObject,
} from "./validate.js";

// One lock table per process, so two Disk instances cannot interleave changes to one disk.
const diskLocks = createKeyedLock();

/** Options of {@link Disk}: give a `host`, or a `shell` to run the default PowerShell host on. */
export type DiskOptions = HostOptions<DiskHost>;

/**
 * The disk API group: find, identify, initialise, partition and bring disks online, as
 * upstream CSI Proxy's disk group does. Every method takes one request object and resolves with
 * one response object; failures are `CsiProxyError`s whose `code` callers branch on. The optional
 * second argument, `{ signal?, timeoutMs?, deadline? }`, bounds the whole method (lock wait and every script):
 * once it aborts or expires the method fails with `ABORTED` or `TIMEOUT`.
 *
 * @example
 * ```ts
 * import { createPowerShell } from "@csi-proxy/exec";
 * import { Disk } from "@csi-proxy/disk";
 *
 * const disk = new Disk({ shell: createPowerShell() });
 * const { diskNumber } = await disk.getDiskNumberByPage83({ page83: "Google  persistent-disk-1" });
 * await disk.setDiskState({ diskNumber, isOnline: true, clearReadOnly: true });
 * await disk.partitionDisk({ diskNumber }, { timeoutMs: 60_000 });
 * ```
 */
export class Disk {
  readonly #binding: HostBinding<DiskHost>;

  constructor(options: DiskOptions = {}) {
    this.#binding = bindHost("Disk", options, createPowerShellDiskHost);
  }

  get #host(): DiskHost {
    return this.#binding.host;
  }

  /**
   * Where each disk is attached (adapter, bus, target, LUN), parsed from `MSFT_Disk.Location`.
   * Disks whose Location is null or not SCSI-shaped (VHD file paths, short NVMe forms) are left out.
   * Cancelled: nothing has changed (a read); retry freely.
   */
  async listDiskLocations(
    request: ListDiskLocationsRequest = {},
    options?: CallOptions,
  ): Promise<ListDiskLocationsResponse> {
    requestObject(request, "listDiskLocations");
    const entries = await withCallContext("listDiskLocations", options, (context) =>
      this.#call("listDiskLocations", () => this.#host.listDiskLocations(context)),
    );
    const diskLocations = new Map<number, DiskLocation>();
    for (const entry of entries) {
      const location = parseLocation(entry.location);
      if (entry.number !== null && location !== undefined)
        diskLocations.set(entry.number, location);
    }
    return { diskLocations };
  }

  /**
   * Makes the disk hold one data partition: initialises it as GPT when it is RAW, then creates a
   * partition over all free space unless a partition other than the Microsoft Reserved one exists
   * (MBR disks included). Idempotent. One PowerShell call, which reads the disk and decides itself.
   * Cancelled: the disk may already be initialised as GPT (with its MSR partition), and the data
   * partition may exist; a retry is safe, as it initialises only a RAW disk and creates a
   * partition only when none exists.
   */
  async partitionDisk(
    request: PartitionDiskRequest,
    options?: CallOptions,
  ): Promise<PartitionDiskResponse> {
    const number = diskNumber(request, "partitionDisk");
    await withCallContext("partitionDisk", options, (context) =>
      this.#locked("partitionDisk", number, context, () =>
        this.#host.partitionDisk(number, context),
      ),
    );
    return {};
  }

  /**
   * Refreshes the host's view of disks, e.g. after a cloud attach (`Update-HostStorageCache`).
   * Cancelled: the refresh may have run; it changes no disk, so a retry is safe.
   */
  async rescan(request: RescanRequest = {}, options?: CallOptions): Promise<RescanResponse> {
    requestObject(request, "rescan");
    await withCallContext("rescan", options, (context) =>
      this.#call("rescan", () => this.#host.rescan(context)),
    );
    return {};
  }

  /**
   * The page-83 identifier and serial number of every disk, read in one PowerShell call. A disk
   * whose device cannot be read is reported in `errors` and left out of `diskIds`.
   * Cancelled: nothing has changed (a read); retry freely.
   */
  async listDiskIds(
    request: ListDiskIdsRequest = {},
    options?: CallOptions,
  ): Promise<ListDiskIdsResponse> {
    requestObject(request, "listDiskIds");
    return withCallContext("listDiskIds", options, (context) => this.#listDiskIds(context));
  }

  async #listDiskIds(context: CallContext): Promise<ListDiskIdsResponse> {
    const entries = await this.#call("listDiskIds", () => this.#host.listDiskIds(context));
    const diskIds = new Map<number, DiskIds>();
    const errors: DiskIdsError[] = [];
    for (const entry of entries) {
      const serialNumber = normalizeSerialNumber(entry.serialNumber);
      if (entry.error === null && entry.page83 !== null && entry.number !== null) {
        diskIds.set(entry.number, {
          page83: entry.page83,
          serialNumber,
          isSystemDisk: entry.isSystemDisk === true,
        });
      } else {
        const { message, win32Error } = entry.error ?? {
          message: "The disk has no number.",
          win32Error: null,
        };
        errors.push({
          diskNumber: entry.number,
          path: entry.path,
          serialNumber,
          message,
          win32Error,
        });
      }
    }
    return { diskIds, errors };
  }

  /** The disk's size in bytes. Cancelled: nothing has changed (a read); retry freely. */
  async getDiskStats(
    request: GetDiskStatsRequest,
    options?: CallOptions,
  ): Promise<GetDiskStatsResponse> {
    const number = diskNumber(request, "getDiskStats");
    const disk = await withCallContext("getDiskStats", options, (context) =>
      this.#locked("getDiskStats", number, context, () => this.#host.getDisk(number, context)),
    );
    return { totalBytes: disk.size };
  }

  /**
   * Brings the disk online or takes it offline, in one PowerShell call that reads the disk and
   * decides itself; only calls that change something are made.
   * Read-only is left alone unless `clearReadOnly` is set: then, after `IsOffline $false`, the
   * disk is read again (Windows may apply read-only as it comes online) and `IsReadOnly $false`
   * is set if needed, then checked. If the disk stays read-only it stays online and the call
   * fails with {@link DiskReadOnlyError} (`FAILED_PRECONDITION`); a retry only retries the clearing.
   * Cancelled: the disk may already be online (or offline), and read-only may already be cleared;
   * a retry is safe, as it reads the disk first and sets only what still differs.
   */
  async setDiskState(
    request: SetDiskStateRequest,
    options?: CallOptions,
  ): Promise<SetDiskStateResponse> {
    const number = diskNumber(request, "setDiskState");
    const isOnline = booleanField(request, "isOnline", "setDiskState");
    const clearReadOnly = optionalBooleanField(request, "clearReadOnly", "setDiskState");
    if (clearReadOnly && !isOnline) {
      throw invalidArgument("setDiskState: clearReadOnly needs isOnline: true.");
    }
    return withCallContext("setDiskState", options, (context) =>
      this.#locked("setDiskState", number, context, async () => {
        if (!isOnline) {
          const { isReadOnly } = await this.#host.setOffline(number, context);
          return { isReadOnly };
        }
        const state = await this.#host.setOnline(number, clearReadOnly, context);
        // The disk is online by now: a refusal must not read as "onlining failed". Whether Windows
        // can report success and keep the attribute is not documented, so the host re-read it.
        if (clearReadOnly && (state.readOnlyRefusal !== null || state.isReadOnly)) {
          const cause = state.readOnlyRefusal;
          throw new DiskReadOnlyError(number, cause === null ? {} : { cause });
        }
        return { isReadOnly: state.isReadOnly };
      }),
    );
  }

  /** Whether the disk is online. Cancelled: nothing has changed (a read); retry freely. */
  async getDiskState(
    request: GetDiskStateRequest,
    options?: CallOptions,
  ): Promise<GetDiskStateResponse> {
    const number = diskNumber(request, "getDiskState");
    const disk = await withCallContext("getDiskState", options, (context) =>
      this.#locked("getDiskState", number, context, () => this.#host.getDisk(number, context)),
    );
    return { isOnline: !disk.isOffline };
  }

  /**
   * The number of the disk whose page-83 identifier equals `page83` exactly (upstream v1alpha1's
   * GetDiskNumberByName / v2's GetDiskNumberWithID). `NOT_FOUND` when every disk was read and
   * none matched; `COMMAND_FAILED` when none matched but some disk could not be read.
   * Cancelled: nothing has changed (a read); retry freely.
   */
  async getDiskNumberByPage83(
    request: GetDiskNumberByPage83Request,
    options?: CallOptions,
  ): Promise<GetDiskNumberByPage83Response> {
    const page83 = parsePage83Id(requestObject(request, "getDiskNumberByPage83").page83);
    const { diskIds, errors } = await withCallContext("getDiskNumberByPage83", options, (context) =>
      this.#listDiskIds(context),
    );
    for (const [number, ids] of diskIds) {
      if (ids.page83 === page83) return { diskNumber: number };
    }
    if (errors.length > 0) {
      const unreadable = errors.map((e) => `${e.diskNumber ?? e.path}: ${e.message}`).join("; ");
      throw new CsiProxyError(
        `No readable disk has page-83 identifier ${JSON.stringify(page83)}, and some disks could not be read (${unreadable}).`,
        { code: "COMMAND_FAILED" },
      );
    }
    throw new CsiProxyError(`No disk has page-83 identifier ${JSON.stringify(page83)}.`, {
      code: "NOT_FOUND",
    });
  }

  /** Closes the PowerShell this instance created itself; a shell or host given to it is left open. */
  async close(): Promise<void> {
    await this.#binding.close();
  }

  async #call<T>(operation: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw operationFailed(operation, error);
    }
  }

  // Reads take the lock too: a read issued after a change to the disk sees the change, never a half.
  // A wait abandoned on the context's signal never runs `work`.
  async #locked<T>(
    method: string,
    number: number,
    context: CallContext,
    work: () => Promise<T>,
  ): Promise<T> {
    return this.#call(`${method}(disk ${number})`, () =>
      diskLocks.run(`disk:${number}`, work, context.signal),
    );
  }
}
