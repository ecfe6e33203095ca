import {
  bindHost,
  createKeyedLock,
  groupOptions,
  pathStyleOption,
  withCallContext,
  type CallContext,
  type CallOptions,
  type HostBinding,
  type KeyedLock,
} from "@csi-proxy/exec";
import { sizeUnreachableError, SupportedSizeUnavailableError, toVolumeError } from "./errors.js";
import { createPowerShellVolumeHost } from "./host.js";
import type { VolumeHost } from "./host-types.js";
import {
  lookupVolumeId,
  maxPathSteps,
  mountResponse,
  singleDiskNumber,
  unmountResponse,
} from "./outcomes.js";
import { toByteCount } from "./parse.js";
import type {
  FormatVolumeRequest,
  FormatVolumeResponse,
  GetClosestVolumeIdFromTargetPathRequest,
  GetClosestVolumeIdFromTargetPathResponse,
  GetDiskNumberFromVolumeIdRequest,
  GetDiskNumberFromVolumeIdResponse,
  GetVolumeIdFromTargetPathRequest,
  GetVolumeIdFromTargetPathResponse,
  GetVolumeStatsRequest,
  GetVolumeStatsResponse,
  IsVolumeFormattedRequest,
  IsVolumeFormattedResponse,
  ListVolumeMountPointsRequest,
  ListVolumeMountPointsResponse,
  ListVolumeDisksRequest,
  ListVolumeDisksResponse,
  ListVolumesOnDiskRequest,
  ListVolumesOnDiskResponse,
  MountVolumeRequest,
  MountVolumeResponse,
  PathStyle,
  ResizeVolumeRequest,
  ResizeVolumeResponse,
  UnmountVolumeRequest,
  UnmountVolumeResponse,
  VolumeOptions,
  WriteVolumeCacheRequest,
  WriteVolumeCacheResponse,
} from "./types.js";
import {
  assertRequest,
  pathKey,
  validateFileSystem,
  validateLabel,
  validateSizeBytes,
  validateTargetPath,
  validateUint32,
  parseVolumeId,
  volumeKey,
} from "./validate.js";

// One lock table per process, so two Volume instances cannot interleave work on one resource.
const volumeLocks: KeyedLock = createKeyedLock();

/**
 * The volume API group: format, mount, resize, stats and path-to-volume lookups. Every method
 * validates its request before any process starts, then runs one host call (two for a resize)
 * while holding per-volume, per-disk or per-path locks. The optional second argument,
 * `{ signal?, timeoutMs? }`, bounds the whole method (lock wait and every script): once it aborts
 * or expires the method fails with `ABORTED` or `TIMEOUT`.
 *
 * @example
 * ```ts
 * import { Volume } from "@csi-proxy/volume";
 *
 * const volume = new Volume();
 * const { volumeIds } = await volume.listVolumesOnDisk({ diskNumber: 2 });
 * const volumeId = volumeIds[0]!;
 * if (!(await volume.isVolumeFormatted({ volumeId })).formatted) await volume.formatVolume({ volumeId });
 * await volume.mountVolume(
 *   { volumeId, targetPath: "C:\\var\\lib\\kubelet\\staging\\pv-1" },
 *   { timeoutMs: 30_000 },
 * );
 * await volume.close();
 * ```
 */
export class Volume {
  readonly #binding: HostBinding<VolumeHost>;
  readonly #locks: KeyedLock = volumeLocks;
  /** The path rules applied to `targetPath`. */
  readonly pathStyle: PathStyle;

  /**
   * @param options - `host` (used as is), else `shell`, else a new `createPowerShell()` that
   *   {@link Volume.close} ends; `pathStyle` defaults to the platform's.
   */
  constructor(options: VolumeOptions = {}) {
    this.pathStyle = pathStyleOption(groupOptions(options, "Volume")("pathStyle"));
    this.#binding = bindHost("Volume", options, createPowerShellVolumeHost);
  }

  get #host(): VolumeHost {
    return this.#binding.host;
  }

  /**
   * Volume ids of a disk (partition 0 or absent: all partitions); an empty list when there are none.
   * Cancelled: nothing has changed (a read); retry freely.
   */
  async listVolumesOnDisk(
    request: ListVolumesOnDiskRequest,
    options?: CallOptions,
  ): Promise<ListVolumesOnDiskResponse> {
    request = assertRequest(request);
    const diskNumber = validateUint32(request.diskNumber, "diskNumber");
    const partitionNumber = validateUint32(request.partitionNumber ?? 0, "partitionNumber");
    const volumeIds = await withCallContext("listVolumesOnDisk", options, (context) =>
      this.#run(`disk:${diskNumber}`, `Disk ${diskNumber}`, "", context, () =>
        this.#host.listVolumeIds(diskNumber, partitionNumber, context),
      ),
    );
    return { volumeIds };
  }

  /**
   * Mounts the volume at an existing empty folder; succeeds without change if it is already there.
   * Cancelled: the access path may have been added; a retry is safe, as it finds this volume
   * mounted there and succeeds with `alreadyMounted: true`.
   */
  async mountVolume(
    request: MountVolumeRequest,
    options?: CallOptions,
  ): Promise<MountVolumeResponse> {
    request = assertRequest(request);
    const volumeId = parseVolumeId(request.volumeId);
    const targetPath = validateTargetPath(request.targetPath, this.pathStyle);
    const keys = [volumeKey(volumeId), pathKey(targetPath, this.pathStyle)];
    const outcome = await withCallContext("mountVolume", options, (context) =>
      this.#run(keys, `Volume ${volumeId} or path ${targetPath}`, volumeId, context, () =>
        this.#host.mountVolume(volumeId, targetPath, context),
      ),
    );
    return mountResponse(outcome, targetPath);
  }

  /**
   * Flushes the volume's cache, then unmounts it from the folder; succeeds if it was not mounted
   * there. Cancelled: the cache may have been flushed and the access path removed; a retry is
   * safe, as it flushes again and succeeds with `wasMounted: false` once the path is gone.
   */
  async unmountVolume(
    request: UnmountVolumeRequest,
    options?: CallOptions,
  ): Promise<UnmountVolumeResponse> {
    request = assertRequest(request);
    const volumeId = parseVolumeId(request.volumeId);
    const targetPath = validateTargetPath(request.targetPath, this.pathStyle);
    const keys = [volumeKey(volumeId), pathKey(targetPath, this.pathStyle)];
    const outcome = await withCallContext("unmountVolume", options, (context) =>
      this.#run(keys, `Volume ${volumeId}`, volumeId, context, () =>
        this.#host.unmountVolume(volumeId, targetPath, context),
      ),
    );
    return unmountResponse(outcome, targetPath);
  }

  /**
   * Whether the volume has any file system (NTFS, ReFS, FAT32, ...).
   * Cancelled: nothing has changed (a read); retry freely.
   */
  async isVolumeFormatted(
    request: IsVolumeFormattedRequest,
    options?: CallOptions,
  ): Promise<IsVolumeFormattedResponse> {
    request = assertRequest(request);
    const volumeId = parseVolumeId(request.volumeId);
    const info = await withCallContext("isVolumeFormatted", options, (context) =>
      this.#onVolume(volumeId, context, () => this.#host.getVolume(volumeId, context)),
    );
    const type = info.fileSystemType.trim().toLowerCase();
    return { formatted: type !== "" && type !== "unknown" && type !== "0" };
  }

  /**
   * Quick-formats the volume (NTFS unless `fileSystem` says ReFS), always: check
   * {@link isVolumeFormatted} first. Cancelled: the volume may already be formatted, or left RAW
   * (Windows documents no state in between); retrying the driver's check-then-format is safe,
   * as a formatted volume is not formatted again and a RAW one is formatted afresh.
   */
  async formatVolume(
    request: FormatVolumeRequest,
    options?: CallOptions,
  ): Promise<FormatVolumeResponse> {
    request = assertRequest(request);
    const volumeId = parseVolumeId(request.volumeId);
    const fileSystem = validateFileSystem(request.fileSystem);
    const label = validateLabel(request.label);
    await withCallContext("formatVolume", options, (context) =>
      this.#onVolume(volumeId, context, () =>
        this.#host.formatVolume(volumeId, fileSystem, label, context),
      ),
    );
    return {};
  }

  /**
   * Grows the volume's partition (and file system) to `sizeBytes`, clamped to the supported
   * maximum, or to the maximum when it is 0. Shrink requests and growth below 100 MiB (measured
   * after clamping) succeed without change (`resized: false`). The Storage cache is refreshed
   * first (`Update-HostStorageCache`), so a disk the cloud just grew shows its new size; a
   * `sizeBytes` larger than the disk even then fails with `FAILED_PRECONDITION` (retry later).
   * Without defragsvc (`Get-PartitionSupportedSize` failing) an explicit size is clamped to what
   * the partition layout allows; a size of 0 then fails with {@link SupportedSizeUnavailableError}.
   * Cancelled: the partition may already have grown; a retry is safe, as it reads the size again
   * and grows only what is still missing (`resized: false` when the first call finished the job).
   */
  async resizeVolume(
    request: ResizeVolumeRequest,
    options?: CallOptions,
  ): Promise<ResizeVolumeResponse> {
    request = assertRequest(request);
    const volumeId = parseVolumeId(request.volumeId);
    const requested = validateSizeBytes(request.sizeBytes);
    return withCallContext("resizeVolume", options, (context) =>
      this.#onVolume(volumeId, context, async () => {
        const outcome = await this.#host.resizeVolume(volumeId, requested, context);
        if (outcome.status === "noSizeMax") throw new SupportedSizeUnavailableError(volumeId);
        if (outcome.status === "unreachable")
          throw sizeUnreachableError(volumeId, requested, outcome.diskSize);
        if (outcome.status === "skipped") return { resized: false };
        return { resized: true };
      }),
    );
  }

  /**
   * File-system size and used bytes of the volume.
   * Cancelled: nothing has changed (a read); retry freely.
   */
  async getVolumeStats(
    request: GetVolumeStatsRequest,
    options?: CallOptions,
  ): Promise<GetVolumeStatsResponse> {
    request = assertRequest(request);
    const volumeId = parseVolumeId(request.volumeId);
    const info = await withCallContext("getVolumeStats", options, (context) =>
      this.#onVolume(volumeId, context, () => this.#host.getVolume(volumeId, context)),
    );
    const used = info.size > info.sizeRemaining ? info.size - info.sizeRemaining : 0n;
    return { totalBytes: toByteCount(info.size), usedBytes: toByteCount(used) };
  }

  /**
   * The number of the disk holding the volume.
   * Cancelled: nothing has changed (a read); retry freely.
   */
  async getDiskNumberFromVolumeId(
    request: GetDiskNumberFromVolumeIdRequest,
    options?: CallOptions,
  ): Promise<GetDiskNumberFromVolumeIdResponse> {
    request = assertRequest(request);
    const volumeId = parseVolumeId(request.volumeId);
    const numbers = await withCallContext("getDiskNumberFromVolumeId", options, (context) =>
      this.#onVolume(volumeId, context, () => this.#host.getDiskNumbers(volumeId, context)),
    );
    const diskNumber = singleDiskNumber(volumeId, numbers);
    return { diskNumber };
  }

  /**
   * Every volume of the node and the disks its partitions lie on, in one listing (one
   * Get-Partition): what `getDiskNumberFromVolumeId` answers for one volume, for all of them, and
   * the same host call whichever volume a caller is about to ask for.
   * Cancelled: nothing has changed (a read); retry freely.
   */
  async listVolumeDisks(
    request: ListVolumeDisksRequest = {},
    options?: CallOptions,
  ): Promise<ListVolumeDisksResponse> {
    assertRequest(request);
    const found = await withCallContext("listVolumeDisks", options, (context) =>
      this.#host.listVolumeDisks(context),
    );
    const byId = new Map<string, Set<number>>();
    for (const { volumeId, diskNumber } of found) {
      const disks = byId.get(volumeId) ?? new Set<number>();
      disks.add(diskNumber);
      byId.set(volumeId, disks);
    }
    return {
      volumes: [...byId]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([volumeId, disks]) => ({ volumeId, diskNumbers: [...disks].sort((a, b) => a - b) })),
    };
  }

  /**
   * The volume mounted at the path, following links (at most 256); NOT_FOUND if it is no mount.
   * Cancelled: nothing has changed (a read); retry freely.
   */
  async getVolumeIdFromTargetPath(
    request: GetVolumeIdFromTargetPathRequest,
    options?: CallOptions,
  ): Promise<GetVolumeIdFromTargetPathResponse> {
    request = assertRequest(request);
    const targetPath = validateTargetPath(request.targetPath, this.pathStyle);
    const lookup = await withCallContext("getVolumeIdFromTargetPath", options, (context) =>
      this.#run(pathKey(targetPath, this.pathStyle), `Path ${targetPath}`, "", context, () =>
        this.#host.resolveMountTarget(targetPath, maxPathSteps, context),
      ),
    );
    return { volumeId: lookupVolumeId(targetPath, lookup) };
  }

  /**
   * The volume holding the path: follows links, walks up, ends at the drive (or root) volume.
   * Cancelled: nothing has changed (a read); retry freely.
   */
  async getClosestVolumeIdFromTargetPath(
    request: GetClosestVolumeIdFromTargetPathRequest,
    options?: CallOptions,
  ): Promise<GetClosestVolumeIdFromTargetPathResponse> {
    request = assertRequest(request);
    const targetPath = validateTargetPath(request.targetPath, this.pathStyle);
    const lookup = await withCallContext("getClosestVolumeIdFromTargetPath", options, (context) =>
      this.#run(pathKey(targetPath, this.pathStyle), `Path ${targetPath}`, "", context, () =>
        this.#host.findClosestVolume(targetPath, maxPathSteps, context),
      ),
    );
    return { volumeId: lookupVolumeId(targetPath, lookup) };
  }

  /**
   * Flushes the volume's file-system cache to disk.
   * Cancelled: part of the cache may have been flushed; a flush is repeatable, so a retry is safe.
   */
  async writeVolumeCache(
    request: WriteVolumeCacheRequest,
    options?: CallOptions,
  ): Promise<WriteVolumeCacheResponse> {
    request = assertRequest(request);
    const volumeId = parseVolumeId(request.volumeId);
    await withCallContext("writeVolumeCache", options, (context) =>
      this.#onVolume(volumeId, context, () => this.#host.writeVolumeCache(volumeId, context)),
    );
    return {};
  }

  /**
   * Where the volume is mounted: its partition's access paths (drive roots such as `D:\` and
   * mount folders, as Windows stores them) without the `\\?\Volume{GUID}\` path every volume
   * has; an empty list when there are none. `NOT_FOUND` when no volume has the id.
   * Cancelled: nothing has changed (a read); retry freely.
   */
  async listVolumeMountPoints(
    request: ListVolumeMountPointsRequest,
    options?: CallOptions,
  ): Promise<ListVolumeMountPointsResponse> {
    request = assertRequest(request);
    const volumeId = parseVolumeId(request.volumeId);
    const mountPoints = await withCallContext("listVolumeMountPoints", options, (context) =>
      this.#onVolume(volumeId, context, () => this.#host.listMountPoints(volumeId, context)),
    );
    return { mountPoints };
  }

  /** Closes the PowerShell host this instance created (an injected `shell` or `host` is left open). */
  async close(): Promise<void> {
    await this.#binding.close();
  }

  // The maximum is always asked for; only a size-0 request needs it, so for an explicit size a
  // failed Get-PartitionSupportedSize (defragsvc, StorageWMI 4; aws-ebs-csi-driver#2877) is not a
  // failure: the clamp uses the maximum the partition layout allows instead.
  #onVolume<T>(volumeId: string, context: CallContext, work: () => Promise<T>): Promise<T> {
    return this.#run(volumeKey(volumeId), `Volume ${volumeId}`, volumeId, context, work);
  }

  // A lock wait abandoned on the context's signal never runs `work`.
  async #run<T>(
    keys: string | string[],
    subject: string,
    volumeId: string,
    context: CallContext,
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await this.#locks.run(keys, work, context.signal);
    } catch (error) {
      throw toVolumeError(error, subject, volumeId);
    }
  }
}
