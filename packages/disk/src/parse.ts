import { CsiProxyError, type PowerShellErrorRecord } from "@csi-proxy/exec";
import type { HostDisk, HostDiskId, HostDiskLocation, HostPartitionOutcome } from "./host.js";

const maxUint32 = 0xffff_ffff;

function parseFailed(what: string, value: unknown): CsiProxyError {
  // JSON.stringify gives undefined for undefined, which is itself worth showing.
  const shown =
    value === undefined
      ? "nothing"
      : JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? String(v) : v));
  return new CsiProxyError(`Unexpected ${what} from PowerShell: ${shown.slice(0, 200)}`, {
    code: "PARSE_FAILED",
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function list(what: string, value: unknown): unknown[] {
  // Scripts write ,@(...) so a list is always an array; anything else is a broken answer.
  if (!Array.isArray(value)) throw parseFailed(what, value);
  return value as unknown[];
}

/** A disk number as PowerShell wrote it: a uint32, or null when absent (e.g. cluster disks). */
export function diskNumberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= maxUint32
    ? value
    : null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** Output of the Number/Location listing: entries that are not objects are a broken answer. */
export function parseLocations(value: unknown): HostDiskLocation[] {
  return list("disk locations", value).map((item) => {
    if (!isRecord(item)) throw parseFailed("disk location entry", item);
    return { number: diskNumberOrNull(item.number), location: stringOrNull(item.location) };
  });
}

/** exec hands back UInt64 values as number when safe and bigint beyond; a fraction is corrupt. */
function bytes(value: unknown): number | bigint | undefined {
  if (typeof value === "bigint" && value >= 0n) return value;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  return undefined;
}

/** Output of the one-disk query. */
export function parseDisk(value: unknown): HostDisk {
  if (!isRecord(value)) throw parseFailed("disk", value);
  const { number, partitionStyle, isOffline, isReadOnly } = value;
  const size = bytes(value.size);
  if (
    diskNumberOrNull(number) === null ||
    typeof partitionStyle !== "number" ||
    typeof isOffline !== "boolean" ||
    typeof isReadOnly !== "boolean" ||
    size === undefined
  ) {
    throw parseFailed("disk", value);
  }
  return { number: number as number, partitionStyle, isOffline, isReadOnly, size };
}

/** Output of the partitioning script: what it did. */
export function parsePartitionOutcome(value: unknown): HostPartitionOutcome {
  if (
    !isRecord(value) ||
    typeof value.initialized !== "boolean" ||
    typeof value.created !== "boolean"
  ) {
    throw parseFailed("partitioning outcome", value);
  }
  return { initialized: value.initialized, created: value.created };
}

/** A disk's state after a change, with the error record of a refused read-only clear, if any. */
export interface ParsedDiskState {
  readonly isOffline: boolean;
  readonly isReadOnly: boolean;
  readonly readOnlyRefusal: PowerShellErrorRecord | null;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

function errorRecord(value: unknown): PowerShellErrorRecord {
  if (
    !isRecord(value) ||
    typeof value.message !== "string" ||
    typeof value.fullyQualifiedErrorId !== "string"
  ) {
    throw parseFailed("error record", value);
  }
  const chain = Array.isArray(value.exceptionChain)
    ? value.exceptionChain.filter((t): t is string => typeof t === "string")
    : [];
  return {
    message: value.message,
    fullyQualifiedErrorId: value.fullyQualifiedErrorId,
    category: stringOr(value.category, ""),
    reason: stringOr(value.reason, ""),
    targetName: stringOr(value.targetName, ""),
    targetType: stringOr(value.targetType, ""),
    exceptionType: stringOr(value.exceptionType, ""),
    exceptionChain: chain,
    hResult: typeof value.hResult === "number" ? value.hResult : 0,
    nativeErrorCode: stringOrNull(value.nativeErrorCode),
    statusCode: typeof value.statusCode === "number" ? value.statusCode : null,
    messageId: stringOrNull(value.messageId),
    errorDetails: stringOrNull(value.errorDetails),
    scriptStackTrace: stringOr(value.scriptStackTrace, ""),
  };
}

/** Output of the online/offline scripts. */
export function parseDiskState(value: unknown): ParsedDiskState {
  if (
    !isRecord(value) ||
    typeof value.isOffline !== "boolean" ||
    typeof value.isReadOnly !== "boolean"
  ) {
    throw parseFailed("disk state", value);
  }
  const refusal = value.readOnlyRefusal;
  return {
    isOffline: value.isOffline,
    isReadOnly: value.isReadOnly,
    readOnlyRefusal: refusal === null || refusal === undefined ? null : errorRecord(refusal),
  };
}

function idError(value: unknown): HostDiskId["error"] {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return { message: value, win32Error: null };
  if (!isRecord(value)) return { message: "unknown error", win32Error: null };
  const message = typeof value.message === "string" ? value.message : "unknown error";
  const win32Error = typeof value.win32Error === "number" ? value.win32Error : null;
  return { message, win32Error };
}

/** Output of the identifier listing. */
export function parseDiskIds(value: unknown): HostDiskId[] {
  return list("disk ids", value).map((item) => {
    if (!isRecord(item)) throw parseFailed("disk id entry", item);
    const error = idError(item.error);
    const page83 = stringOrNull(item.page83);
    // An entry with neither an identifier nor an error would silently report a wrong "".
    if (error === null && page83 === null) throw parseFailed("disk id entry", item);
    return {
      number: diskNumberOrNull(item.number),
      path: stringOrNull(item.path) ?? "",
      serialNumber: stringOrNull(item.serialNumber),
      isSystemDisk: item.isBoot === true || item.isSystem === true,
      page83,
      error,
    };
  });
}
