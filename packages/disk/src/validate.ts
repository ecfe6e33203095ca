import { invalidArgument, requestFields, validateUint32 } from "@csi-proxy/exec";

/** The request must be an object: JavaScript callers get no compile-time check. */
export const requestObject = requestFields;

/** A Windows disk number: an integer from 0 to 2^32 − 1 (MSFT_Disk.Number is a UInt32). */
export function diskNumber(request: unknown, method: string): number {
  return validateUint32(requestObject(request, method).diskNumber, `${method}: diskNumber`);
}

/** A boolean field. */
export function booleanField(request: unknown, field: string, method: string): boolean {
  const value = requestObject(request, method)[field];
  if (typeof value !== "boolean") {
    throw invalidArgument(`${method}: ${field} must be a boolean, got ${describe(value)}.`);
  }
  return value;
}

/** An optional boolean field: absent (or undefined) is `false`. */
export function optionalBooleanField(request: unknown, field: string, method: string): boolean {
  if (requestObject(request, method)[field] === undefined) return false;
  return booleanField(request, field, method);
}

/**
 * Validates a page-83 (SCSI VPD 0x83) disk identifier the way `getDiskNumberByPage83` does, so a
 * gRPC handler can refuse bad input before calling anything: any non-empty string, compared
 * byte-exactly later (Windows keeps padding such as `Google  persistent-disk-1`). Returns the value
 * unchanged; throws `INVALID_ARGUMENT` (a `CsiProxyError`) otherwise.
 *
 * @example
 * ```ts
 * parsePage83Id("Google  persistent-disk-1"); // "Google  persistent-disk-1"
 * parsePage83Id(""); // throws CsiProxyError { code: "INVALID_ARGUMENT" }
 * ```
 */
export function parsePage83Id(value: unknown): string {
  if (typeof value !== "string" || value === "") {
    throw invalidArgument(
      `getDiskNumberByPage83: page83 must be a non-empty string, got ${describe(value)}.`,
    );
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, 100));
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return value === null ? "null" : typeof value;
}
