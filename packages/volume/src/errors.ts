import {
  brandedGuard,
  CsiProxyError,
  isCsiProxyError,
  parseErrorId,
  type PowerShellErrorRecord,
} from "@csi-proxy/exec";

/**
 * `resizeVolume` with `sizeBytes: 0` could not read the partition's maximum size: the
 * `Get-PartitionSupportedSize` call failed (typically `StorageWMI 4` while the Optimize Drives
 * service, defragsvc, is disabled or busy) or returned no `SizeMax`. Code `FAILED_PRECONDITION`;
 * retrying rarely helps until defragsvc runs, so pass an explicit size or fix the service.
 */
export class SupportedSizeUnavailableError extends CsiProxyError {
  /** The volume whose partition's supported size could not be read. */
  readonly volumeId: string;

  constructor(volumeId: string, cause?: unknown) {
    const reason = cause instanceof Error ? `: ${cause.message}` : " (no SizeMax)";
    super(
      `Cannot read the supported size of the partition of volume ${volumeId}${reason}. ` +
        "Get-PartitionSupportedSize needs the Optimize Drives service (defragsvc); pass an explicit sizeBytes or enable it.",
      { code: "FAILED_PRECONDITION", cause },
    );
    this.volumeId = volumeId;
  }
}

Object.defineProperty(SupportedSizeUnavailableError.prototype, "name", {
  value: "SupportedSizeUnavailableError",
  writable: true,
  configurable: true,
});
// The key predates the `csi-proxy.<group>.<Class>` scheme; kept so released copies still match.
const sizeErrorGuard = brandedGuard(
  SupportedSizeUnavailableError,
  "csi-proxy.volume.supported-size-error",
);

/** Whether `value` is a {@link SupportedSizeUnavailableError} (from any installed copy, unlike `instanceof`). */
export function isSupportedSizeUnavailableError(
  value: unknown,
): value is SupportedSizeUnavailableError {
  return sizeErrorGuard(value);
}

/**
 * An explicit `resizeVolume` size larger than the disk Windows sees, even after
 * `Update-HostStorageCache`: the cloud's grow has not reached this host (yet). Code
 * `FAILED_PRECONDITION`, which is not final (kubelet retries NodeExpandVolume with backoff, and
 * gRPC defines it as "the system is not in a state required for the operation"), unlike
 * `INVALID_ARGUMENT`; nothing was changed.
 */
export function sizeUnreachableError(
  volumeId: string,
  requested: bigint,
  diskSize: bigint,
): CsiProxyError {
  return new CsiProxyError(
    `Volume ${volumeId}: sizeBytes ${requested} is larger than its disk (${diskSize} bytes as Windows sees it after a storage cache refresh); retry once the disk has grown.`,
    { code: "FAILED_PRECONDITION" },
  );
}

function recordOf(error: unknown): PowerShellErrorRecord | undefined {
  if (!isCsiProxyError(error)) return undefined;
  const record = (error as { record?: unknown }).record;
  return typeof record === "object" && record !== null
    ? (record as PowerShellErrorRecord)
    : undefined;
}

/** Whether a host failure is Get-PartitionSupportedSize's (e.g. `StorageWMI 4` while defragsvc is off). */
export function isSupportedSizeFailure(error: unknown): boolean {
  const record = recordOf(error);
  return (
    record !== undefined &&
    parseErrorId(record.fullyQualifiedErrorId).command === "Get-PartitionSupportedSize"
  );
}

/**
 * Maps a host failure to the code callers branch on: PowerShell's ObjectNotFound (query misses,
 * missing paths) → `NOT_FOUND`; access path in use (42002) → `CONFLICT`; a failed
 * Get-PartitionSupportedSize → {@link SupportedSizeUnavailableError}. Anything else is returned as is.
 */
export function toVolumeError(error: unknown, subject: string, volumeId = ""): unknown {
  const record = recordOf(error);
  if (record === undefined) return error;
  // A missing Storage module is also category ObjectNotFound; exec already named it UNSUPPORTED.
  if (isCsiProxyError(error) && error.code === "UNSUPPORTED") return error;
  if (isSupportedSizeFailure(error)) return new SupportedSizeUnavailableError(volumeId, error);
  const id = parseErrorId(record.fullyQualifiedErrorId);
  if (id.kind === "NotFound" || record.category === "ObjectNotFound")
    return new CsiProxyError(`${subject} was not found: ${record.message}`, {
      code: "NOT_FOUND",
      cause: error,
    });
  if (id.kind === "StorageWMI" && id.code === 42002)
    return new CsiProxyError(`${subject}: the access path is already in use.`, {
      code: "CONFLICT",
      cause: error,
    });
  return error;
}
