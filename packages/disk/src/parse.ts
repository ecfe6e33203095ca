import { CsiProxyError } from "@csi-proxy/exec";
import type { HostDisk, HostDiskId, HostDiskLocation } from "./host.js";

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

/** A count written as a bare integer. */
export function parseCount(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw parseFailed("count", value);
  }
  return value;
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
      page83,
      error,
    };
  });
}
