import { invalidArgument } from "./errors.js";

/** Every API method takes one request object; anything else is INVALID_ARGUMENT. */
export function requestFields(value: unknown, method: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalidArgument(`${method} takes a request object.`);
  }
  return value as Record<string, unknown>;
}

/** A 32-bit unsigned integer (disk, partition numbers), else INVALID_ARGUMENT naming the field. */
export function validateUint32(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw invalidArgument(
      `${field} must be an integer from 0 to 4294967295, got ${String(value)}.`,
    );
  }
  return value;
}
