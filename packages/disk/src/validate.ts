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

/** A non-empty string field. */
export function nonEmptyString(request: unknown, field: string, method: string): string {
  const value = requestObject(request, method)[field];
  if (typeof value !== "string" || value === "") {
    throw invalidArgument(
      `${method}: ${field} must be a non-empty string, got ${describe(value)}.`,
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
