/** Names of MSFT_SmbGlobalMapping `Status` values, plus `Unknown` for codes Windows may add. */
export type SmbMappingStatusName =
  | "OK"
  | "Paused"
  | "Disconnected"
  | "NetworkError"
  | "Connecting"
  | "Reconnecting"
  | "Unavailable"
  | "Unknown";

/** MSFT_SmbGlobalMapping `Status` codes by name (upstream's numeric values). */
export const smbMappingStatusCodes = Object.freeze({
  /** Connected and usable. */
  OK: 0,
  /** Paused. */
  Paused: 1,
  /** Disconnected. */
  Disconnected: 2,
  /** A network error occurred. */
  NetworkError: 3,
  /** Connecting. */
  Connecting: 4,
  /** Reconnecting. */
  Reconnecting: 5,
  /** Unavailable. */
  Unavailable: 6,
} as const);

/** A mapping's status as a readable name and Windows' numeric code (`-1` when unrecognised). */
export interface SmbMappingStatus {
  /** The status name; `Unknown` for a code this package does not know. */
  readonly status: SmbMappingStatusName;
  /** Windows' numeric `Status`, or `-1` when it could not be read. */
  readonly statusCode: number;
}

const byCode = new Map<number, SmbMappingStatusName>(
  Object.entries(smbMappingStatusCodes).map(([name, code]) => [code, name as SmbMappingStatusName]),
);
const byName = new Map<string, number>(
  Object.entries(smbMappingStatusCodes).map(([name, code]) => [name.toLowerCase(), code]),
);

/**
 * Reads a status as PowerShell printed it: the raw code (`"0"`) when the CIM property is a plain
 * UInt32, or the name (`"OK"`) when type data turned it into text, so either form works.
 */
export function toMappingStatus(raw: unknown): SmbMappingStatus {
  const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (/^\d+$/.test(text)) {
    const code = Number(text);
    return { status: byCode.get(code) ?? "Unknown", statusCode: code };
  }
  const code = byName.get(text.toLowerCase());
  return code === undefined
    ? { status: "Unknown", statusCode: -1 }
    : { status: byCode.get(code) ?? "Unknown", statusCode: code };
}
