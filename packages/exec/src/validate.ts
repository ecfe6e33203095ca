import { invalidArgument } from "./errors.js";

// In a `u` regex a valid surrogate pair is one code point, so only lone surrogates match.
const loneSurrogate = /\p{Cs}/u;
const maxRequestDepth = 32;

/** Whether `text` holds a lone (unpaired) UTF-16 surrogate, which UTF-8 cannot carry. */
export function hasLoneSurrogate(text: string): boolean {
  return loneSurrogate.test(text);
}

/**
 * Refuses a string with a lone surrogate: encoding would turn it into U+FFFD, so the host would
 * act on a different string than the one validated.
 */
export function checkWellFormed(text: string, where: string): void {
  if (hasLoneSurrogate(text)) {
    throw invalidArgument(`${where} contains a lone UTF-16 surrogate, which cannot be encoded.`);
  }
}

function checkValue(value: unknown, where: string, depth: number): void {
  if (depth > maxRequestDepth) throw invalidArgument(`${where} is nested too deeply.`);
  if (typeof value === "string") checkWellFormed(value, where);
  else if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => checkValue(item, `${where}[${index}]`, depth + 1));
  } else if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      if (key === "__proto__") throw invalidArgument(`${where} has a field named __proto__.`);
      checkWellFormed(key, `A field name in ${where}`);
      checkValue((value as Record<string, unknown>)[key], `${where}.${key}`, depth + 1);
    }
  }
}

/**
 * Every API method takes one request object; anything else is INVALID_ARGUMENT. Returns its own
 * enumerable fields in a prototype-less copy, so a flag set on `Object.prototype` is never read;
 * a `__proto__` field or a string with a lone surrogate (at any depth) is INVALID_ARGUMENT.
 */
export function requestFields(value: unknown, method: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalidArgument(`${method} takes a request object.`);
  }
  checkValue(value, `The request of ${method}`, 0);
  const own = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) own[key] = (value as Record<string, unknown>)[key];
  return own;
}

/**
 * {@link requestFields} typed as the request it checked, for methods that read fields by name:
 * `request = ownRequest(request, "mkdir")`.
 */
export function ownRequest<T>(value: T, method: string): T {
  return requestFields(value, method) as T;
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
