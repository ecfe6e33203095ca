import {
  bindHost,
  createKeyedLock,
  groupOptions,
  pathStyleOption,
  type HostBinding,
  type KeyedLock,
} from "@csi-proxy/exec";
import { isSupportedSizeFailure, SupportedSizeUnavailableError, toVolumeError } from "./errors.js";
import { createPowerShellVolumeHost } from "./host.js";
import type { PartitionSizes, VolumeHost } from "./host-types.js";
import {
  lookupVolumeId,
  maxPathSteps,
  mountResponse,
  singleDiskNumber,
  unmountResponse,
} from "./outcomes.js";
import { toByteCount } from "./parse.js";
import { resizeDecision } from "./resize.js";
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
  validateVolumeId,
  volumeKey,
} from "./validate.js";

// One lock table per process, so two Volume instances cannot interleave work on one resource.
const volumeLocks: KeyedLock = createKeyedLock();

/**
 * The volume API group: format, mount, resize, stats and path-to-volume lookups. Every method
 * validates its request before any process starts, then runs one host call (two for a resize)
 * while holding per-volume, per-disk or per-path locks.
 *
 * @example
 * ```ts
 * import { Volume } from "@csi-proxy/volume";
 *
 * const volume = new Volume();
 * const { volumeIds } = await volume.listVolumesOnDisk({ diskNumber: 2 });
 * const volumeId = volumeIds[0]!;
 * if (!(await volume.isVolumeFormatted({ volumeId })).formatted) await volume.formatVolume({ volumeId });
 * await volume.mountVolume({ volumeId, targetPath: "C:\\var\\lib\\kubelet\\staging\\pv-1" });
 * await volume.close();
 * ```
 */
export class Volume {
  private readonly binding: HostBinding<VolumeHost>;
  private readonly locks: KeyedLock = volumeLocks;
  /** The path rules applied to `targetPath`. */
  readonly pathStyle: PathStyle;

  /**
   * @param options - `host` (used as is), else `shell`, else a new `createPowerShell()` that
   *   {@link Volume.close} ends; `pathStyle` defaults to the platform's.
   */
  constructor(options: VolumeOptions = {}) {
    this.pathStyle = pathStyleOption(groupOptions(options, "Volume")("pathStyle"));
    this.binding = bindHost("Volume", options, createPowerShellVolumeHost);
  }

  private get host(): VolumeHost {
    return this.binding.host;
  }

  /** Volume ids of a disk (partition 0 or absent: all partitions); an empty list when there are none. */
  async listVolumesOnDisk(request: ListVolumesOnDiskRequest): Promise<ListVolumesOnDiskResponse> {
    request = assertRequest(request);
    const diskNumber = validateUint32(request.diskNumber, "diskNumber");
    const partitionNumber = validateUint32(request.partitionNumber ?? 0, "partitionNumber");
    const volumeIds = await this.run(`disk:${diskNumber}`, `Disk ${diskNumber}`, "", () =>
      this.host.listVolumeIds(diskNumber, partitionNumber),
    );
    return { volumeIds };
  }

  /** Mounts the volume at an existing empty folder; succeeds without change if it is already there. */
  async mountVolume(request: MountVolumeRequest): Promise<MountVolumeResponse> {
    request = assertRequest(request);
    const volumeId = validateVolumeId(request.volumeId);
    const targetPath = validateTargetPath(request.targetPath, this.pathStyle);
    const keys = [volumeKey(volumeId), pathKey(targetPath, this.pathStyle)];
    const outcome = await this.run(keys, `Volume ${volumeId} or path ${targetPath}`, volumeId, () =>
      this.host.mountVolume(volumeId, targetPath),
    );
    return mountResponse(outcome, targetPath);
  }

  /** Flushes the volume's cache, then unmounts it from the folder; succeeds if it was not mounted there. */
  async unmountVolume(request: UnmountVolumeRequest): Promise<UnmountVolumeResponse> {
    request = assertRequest(request);
    const volumeId = validateVolumeId(request.volumeId);
    const targetPath = validateTargetPath(request.targetPath, this.pathStyle);
    const keys = [volumeKey(volumeId), pathKey(targetPath, this.pathStyle)];
    const outcome = await this.run(keys, `Volume ${volumeId}`, volumeId, () =>
      this.host.unmountVolume(volumeId, targetPath),
    );
    return unmountResponse(outcome, targetPath);
  }

  /** Whether the volume has any file system (NTFS, ReFS, FAT32, ...). */
  async isVolumeFormatted(request: IsVolumeFormattedRequest): Promise<IsVolumeFormattedResponse> {
    request = assertRequest(request);
    const volumeId = validateVolumeId(request.volumeId);
    const info = await this.onVolume(volumeId, () => this.host.getVolume(volumeId));
    const type = info.fileSystemType.trim().toLowerCase();
    return { formatted: type !== "" && type !== "unknown" && type !== "0" };
  }

  /** Quick-formats the volume (NTFS unless `fileSystem` says ReFS), always: check {@link isVolumeFormatted} first. */
  async formatVolume(request: FormatVolumeRequest): Promise<FormatVolumeResponse> {
    request = assertRequest(request);
    const volumeId = validateVolumeId(request.volumeId);
    const fileSystem = validateFileSystem(request.fileSystem);
    const label = validateLabel(request.label);
    await this.onVolume(volumeId, () => this.host.formatVolume(volumeId, fileSystem, label));
    return {};
  }

  /**
   * Grows the volume's partition (and file system) to `sizeBytes`, clamped to the supported
   * maximum, or to the maximum when it is 0. Shrink requests and growth below 100 MiB (measured
   * after clamping) succeed without change (`resized: false`).
   */
  async resizeVolume(request: ResizeVolumeRequest): Promise<ResizeVolumeResponse> {
    request = assertRequest(request);
    const volumeId = validateVolumeId(request.volumeId);
    const requested = validateSizeBytes(request.sizeBytes);
    return this.onVolume(volumeId, async () => {
      const sizes = await this.partitionSizes(volumeId, requested === 0n);
      if (requested === 0n && sizes.sizeMax === undefined)
        throw new SupportedSizeUnavailableError(volumeId);
      const decision = resizeDecision(sizes.size, requested, sizes.sizeMax);
      if (!decision.resize) return { resized: false };
      await this.host.resizePartition(volumeId, decision.target);
      return { resized: true };
    });
  }

  /** File-system size and used bytes of the volume. */
  async getVolumeStats(request: GetVolumeStatsRequest): Promise<GetVolumeStatsResponse> {
    request = assertRequest(request);
    const volumeId = validateVolumeId(request.volumeId);
    const info = await this.onVolume(volumeId, () => this.host.getVolume(volumeId));
    const used = info.size > info.sizeRemaining ? info.size - info.sizeRemaining : 0n;
    return { totalBytes: toByteCount(info.size), usedBytes: toByteCount(used) };
  }

  /** The number of the disk holding the volume. */
  async getDiskNumberFromVolumeId(
    request: GetDiskNumberFromVolumeIdRequest,
  ): Promise<GetDiskNumberFromVolumeIdResponse> {
    request = assertRequest(request);
    const volumeId = validateVolumeId(request.volumeId);
    const numbers = await this.onVolume(volumeId, () => this.host.getDiskNumbers(volumeId));
    const diskNumber = singleDiskNumber(volumeId, numbers);
    return { diskNumber };
  }

  /** The volume mounted at the path, following links (at most 256); NOT_FOUND if it is no mount. */
  async getVolumeIdFromTargetPath(
    request: GetVolumeIdFromTargetPathRequest,
  ): Promise<GetVolumeIdFromTargetPathResponse> {
    request = assertRequest(request);
    const targetPath = validateTargetPath(request.targetPath, this.pathStyle);
    const lookup = await this.run(
      pathKey(targetPath, this.pathStyle),
      `Path ${targetPath}`,
      "",
      () => this.host.resolveMountTarget(targetPath, maxPathSteps),
    );
    return { volumeId: lookupVolumeId(targetPath, lookup) };
  }

  /** The volume holding the path: follows links, walks up, ends at the drive (or root) volume. */
  async getClosestVolumeIdFromTargetPath(
    request: GetClosestVolumeIdFromTargetPathRequest,
  ): Promise<GetClosestVolumeIdFromTargetPathResponse> {
    request = assertRequest(request);
    const targetPath = validateTargetPath(request.targetPath, this.pathStyle);
    const lookup = await this.run(
      pathKey(targetPath, this.pathStyle),
      `Path ${targetPath}`,
      "",
      () => this.host.findClosestVolume(targetPath, maxPathSteps),
    );
    return { volumeId: lookupVolumeId(targetPath, lookup) };
  }

  /** Flushes the volume's file-system cache to disk. */
  async writeVolumeCache(request: WriteVolumeCacheRequest): Promise<WriteVolumeCacheResponse> {
    request = assertRequest(request);
    const volumeId = validateVolumeId(request.volumeId);
    await this.onVolume(volumeId, () => this.host.writeVolumeCache(volumeId));
    return {};
  }

  /** Closes the PowerShell host this instance created (an injected `shell` or `host` is left open). */
  async close(): Promise<void> {
    await this.binding.close();
  }

  // The maximum is always asked for; only a size-0 request needs it, so for an explicit size a
  // failed Get-PartitionSupportedSize (defragsvc, StorageWMI 4) means "no clamp", not a failure.
  private async partitionSizes(volumeId: string, required: boolean): Promise<PartitionSizes> {
    try {
      return await this.host.getPartitionSizes(volumeId, true);
    } catch (error) {
      if (required || !isSupportedSizeFailure(error)) throw error;
      return this.host.getPartitionSizes(volumeId, false);
    }
  }

  private onVolume<T>(volumeId: string, work: () => Promise<T>): Promise<T> {
    return this.run(volumeKey(volumeId), `Volume ${volumeId}`, volumeId, work);
  }

  private async run<T>(
    keys: string | string[],
    subject: string,
    volumeId: string,
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await this.locks.run(keys, work);
    } catch (error) {
      throw toVolumeError(error, subject, volumeId);
    }
  }
}
