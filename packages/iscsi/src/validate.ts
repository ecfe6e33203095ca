import { invalidArgument, requestFields } from "@csi-proxy/exec";

/** The request must be an object: JavaScript callers get no compile-time check. */
export const requestObject = requestFields;

/** An optional boolean field; absent means false. */
export function optionalBoolean(
  request: Record<string, unknown>,
  field: string,
  method: string,
): boolean {
  const value = request[field];
  if (value === undefined) return false;
  if (typeof value !== "boolean") {
    throw invalidArgument(`${method}: ${field} must be a boolean, got ${describe(value)}.`);
  }
  return value;
}

/**
 * An optional string field; absent means "". `secret` fields are never quoted back, so their
 * values cannot reach an error message.
 */
export function optionalString(
  request: Record<string, unknown>,
  field: string,
  method: string,
  secret = false,
): string {
  const value = request[field];
  if (value === undefined) return "";
  if (typeof value !== "string") {
    const got = secret ? typeof value : describe(value);
    throw invalidArgument(`${method}: ${field} must be a string, got ${got}.`);
  }
  if (value.includes("\u0000"))
    throw invalidArgument(`${method}: ${field} contains a NUL character.`);
  return value;
}

/** A short, safe rendering of a rejected (non-secret) value for error messages. */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, 100));
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return value === null ? "null" : typeof value;
}
