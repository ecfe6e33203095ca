import {
  CsiProxyError,
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
 * a `PowerShellError` with the full record) stays reachable as `cause`. Not-found and argument
 * errors pass through unchanged: they already say what went wrong and callers branch on them.
 */
export function operationFailed(operation: string, error: unknown): CsiProxyError {
  if (isCsiProxyError(error) && (error.code === "NOT_FOUND" || error.code === "INVALID_ARGUMENT")) {
    return error;
  }
  const code = isCsiProxyError(error) ? error.code : "COMMAND_FAILED";
  const reason = error instanceof Error ? error.message : String(error);
  return new CsiProxyError(`${operation} failed: ${reason}`, { code, cause: error });
}
