import { invalidArgument } from "./errors.js";
import { checkWellFormed } from "./validate.js";
import type { ParamValue, Params } from "./types.js";

/** Wire form of a value: strings and bigints tagged so ConvertFrom-Json cannot reinterpret them. */
export type WireValue =
  | null
  | boolean
  | number
  | { s: string }
  | { n: string }
  | { a: WireValue[] }
  | { o: Record<string, WireValue> };

const parameterName = /^[A-Za-z_][A-Za-z0-9_]*$/;
const secretName = /password|passwd|secret|token|credential/i;
const maxDepth = 32;
/**
 * Windows PowerShell 5.1 reads JSON with .NET Framework's JavaScriptSerializer: an object with a
 * `__type` member is handed to its type resolver (the member dropped, or the call failed), and an
 * object of more than 1000 members throws (aspnet:MaxJsonDeserializerMembers, default 1000).
 * referencesource JavaScriptObjectDeserializer.cs, ObjectConverter.cs.
 */
const typeHintKey = "__type";
const maxMembers = 1000;
const uint64Max = 2n ** 64n - 1n;
const int64Min = -(2n ** 63n);

/** The result of checking a call's parameters: wire form, redaction inputs and a loggable copy. */
export interface EncodedParams {
  readonly wire: Record<string, WireValue>;
  /** Every string found under a secret parameter, for value-based redaction. */
  readonly secretValues: readonly string[];
  /** The parameters with secret values replaced, safe for diagnostics and verbose output. */
  readonly redacted: Record<string, unknown>;
}

export const redactedMarker = "[REDACTED]";

/** Validates and encodes `params`; throws `INVALID_ARGUMENT` naming the offending path. */
export function encodeParams(
  params: Params | undefined,
  secrets: readonly string[] = [],
): EncodedParams {
  const wire: Record<string, WireValue> = {};
  const redacted: Record<string, unknown> = {};
  const secretValues: string[] = [];
  if (params === undefined) return { wire, secretValues, redacted };
  if (!isPlainObject(params)) throw invalidArgument("Script parameters must be a plain object.");
  const explicit = new Set(secrets.map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    // Assigning "__proto__" would set the prototype, silently dropping the parameter.
    if (!parameterName.test(name) || name === "__proto__" || name === typeHintKey) {
      throw invalidArgument(
        `Parameter name ${JSON.stringify(name)} is not a valid PowerShell parameter name.`,
      );
    }
    wire[name] = encodeValue(value, name, 0);
    if (explicit.has(name.toLowerCase()) || secretName.test(name)) {
      collectStrings(value, secretValues);
      redacted[name] = redactedMarker;
    } else {
      redacted[name] = typeof value === "bigint" ? value.toString() : value;
    }
  }
  return { wire, secretValues, redacted };
}

function encodeValue(value: ParamValue, path: string, depth: number): WireValue {
  if (depth > maxDepth)
    throw invalidArgument(`Parameter ${path} is nested deeper than ${maxDepth} levels.`);
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "string") {
    checkWellFormed(value, `Parameter ${path}`);
    return { s: Buffer.from(value, "utf8").toString("base64") };
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value))
      throw invalidArgument(`Parameter ${path} must be a finite number.`);
    return value;
  }
  if (typeof value === "bigint") {
    if (value > uint64Max || value < int64Min) {
      throw invalidArgument(`Parameter ${path} is outside the 64-bit integer range.`);
    }
    return { n: value.toString() };
  }
  if (Array.isArray(value)) {
    return {
      a: value.map((item: ParamValue, index) => encodeValue(item, `${path}[${index}]`, depth + 1)),
    };
  }
  if (isPlainObject(value)) {
    const out: Record<string, WireValue> = {};
    const entries = Object.entries(value);
    if (entries.length > maxMembers) {
      throw invalidArgument(`Parameter ${path} has more than ${maxMembers} keys.`);
    }
    for (const [key, item] of entries) {
      if (key === "__proto__" || key === typeHintKey)
        throw invalidArgument(`Parameter ${path} has a key named ${key}.`);
      checkWellFormed(key, `A key of parameter ${path}`);
      if (item !== undefined) out[key] = encodeValue(item, `${path}.${key}`, depth + 1);
    }
    return { o: out };
  }
  throw invalidArgument(
    `Parameter ${path} has a value of type ${describe(value)}, which cannot be sent to PowerShell.`,
  );
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === "string") {
    if (value !== "") into.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectStrings(item, into);
  } else if (isPlainObject(value)) {
    for (const item of Object.values(value)) collectStrings(item, into);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (typeof value === "object" && value !== null) {
    return (value as { constructor?: { name?: string } }).constructor?.name ?? "object";
  }
  return typeof value;
}
