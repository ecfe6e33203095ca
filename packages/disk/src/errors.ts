import {
  brandedGuard,
  CsiProxyError,
  failureReason,
  isCsiProxyError,
  parseErrorId,
  type PowerShellErrorRecord,
} from "@csi-proxy/exec";

/**
 * The disk does not exist: Get-Disk, Set-Disk or Initialize-Disk found no disk with that number.
 * Branch on `isCsiProxyError(error) && error.code === "NOT_FOUND"`, never on the message.
 */
export class DiskNotFoundError extends CsiProxyError {
  /** The disk number that was looked up. */
  readonly diskNumber: number;

  constructor(diskNumber: number, options: { cause?: unknown } = {}) {
    super(`Disk ${diskNumber} was not found.`, { code: "NOT_FOUND", cause: options.cause });
    this.diskNumber = diskNumber;
  }
}

Object.defineProperty(DiskNotFoundError.prototype, "name", {
  value: "DiskNotFoundError",
  writable: true,
  configurable: true,
});

const diskNotFoundGuard = brandedGuard(DiskNotFoundError, "csi-proxy.disk.DiskNotFoundError");

/** Whether `value` is a {@link DiskNotFoundError} (from any installed copy, unlike `instanceof`). */
export function isDiskNotFoundError(value: unknown): value is DiskNotFoundError {
  return diskNotFoundGuard(value);
}

/**
 * `setDiskState({ isOnline: true, clearReadOnly: true })` brought the disk online (or found it
 * online) but it is still read-only: Windows refused to clear the attribute (e.g. the LUN or the
 * attachment is read-only on the storage side) or the attribute came back. Code
 * `FAILED_PRECONDITION`. The disk stays online, so a retry only tries the clearing again; the
 * refusal, when there was one, is the `cause`.
 */
export class DiskReadOnlyError extends CsiProxyError {
  /** The disk that stayed read-only. */
  readonly diskNumber: number;

  constructor(diskNumber: number, options: { cause?: unknown } = {}) {
    const reason = options.cause instanceof Error ? `: ${options.cause.message}` : ".";
    super(`Disk ${diskNumber} is online but still read-only; clearing read-only failed${reason}`, {
      code: "FAILED_PRECONDITION",
      cause: options.cause,
    });
    this.diskNumber = diskNumber;
  }
}

Object.defineProperty(DiskReadOnlyError.prototype, "name", {
  value: "DiskReadOnlyError",
  writable: true,
  configurable: true,
});
// The key predates the `csi-proxy.<group>.<Class>` scheme; kept so released copies still match.
const readOnlyGuard = brandedGuard(DiskReadOnlyError, "csi-proxy.disk.read-only-error");

/** Whether `value` is a {@link DiskReadOnlyError} (from any installed copy, unlike `instanceof`). */
export function isDiskReadOnlyError(value: unknown): value is DiskReadOnlyError {
  return readOnlyGuard(value);
}

/** The PowerShell error record of a failure, read structurally so duplicate installs still match. */
function recordOf(error: unknown): PowerShellErrorRecord | undefined {
  if (!isCsiProxyError(error)) return undefined;
  return (error as { record?: PowerShellErrorRecord }).record;
}

/** Whether a failure is the Storage module's "no MSFT_Disk with that number" query miss. */
export function isDiskQueryMiss(error: unknown): boolean {
  const id = recordOf(error)?.fullyQualifiedErrorId;
  if (id === undefined) return false;
  // Only the Number/DiskNumber selectors name a disk; other query misses mean something else.
  return (
    parseErrorId(id).kind === "NotFound" &&
    /^CmdletizationQuery_NotFound_(Disk)?Number(,|$)/.test(id)
  );
}

/** Whether a failure carries the given Storage Management return code (`StorageWMI <code>,...`). */
export function hasStorageWmiCode(error: unknown, code: number): boolean {
  const id = recordOf(error)?.fullyQualifiedErrorId;
  if (id === undefined) return false;
  const info = parseErrorId(id);
  return info.kind === "StorageWMI" && info.code === code;
}

/**
 * Names the operation in a failure's message while keeping its code; the original error (usually
 * a `PowerShellError` with the full record) stays reachable as `cause`. Not-found, argument and
 * read-only errors pass through unchanged: they already say what went wrong and callers branch on them.
 */
export function operationFailed(operation: string, error: unknown): CsiProxyError {
  if (isCsiProxyError(error) && (error.code === "NOT_FOUND" || error.code === "INVALID_ARGUMENT")) {
    return error;
  }
  if (isDiskReadOnlyError(error)) return error;
  const code = isCsiProxyError(error) ? error.code : "COMMAND_FAILED";
  const reason = failureReason(error);
  return new CsiProxyError(`${operation} failed: ${reason}`, { code, cause: error });
}
