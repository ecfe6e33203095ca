import { invalidArgument } from "./errors.js";

/** Longest timer Node keeps: a longer `setTimeout` fires at once. */
export const maxTimeoutMs = 2 ** 31 - 1;

/** Own properties only: a field set on `Object.prototype` is never an option. */
export function ownField(options: object, key: string): unknown {
  return Object.hasOwn(options, key) ? (options as Record<string, unknown>)[key] : undefined;
}

/** Whether `value` can be listened to as an AbortSignal (any realm's). */
export function isAbortSignal(value: unknown): value is AbortSignal {
  if (typeof value !== "object" || value === null) return false;
  const signal = value as Partial<AbortSignal>;
  return (
    typeof signal.aborted === "boolean" &&
    typeof signal.addEventListener === "function" &&
    typeof signal.removeEventListener === "function"
  );
}

/** A list of non-empty strings, else INVALID_ARGUMENT naming `name`. */
export function stringList(value: unknown, name: string): readonly string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && item !== "")) {
    throw invalidArgument(`${name} must be an array of non-empty strings.`);
  }
  return value as readonly string[];
}

/** An integer from 1 to `max`, or `fallback` when absent; else INVALID_ARGUMENT naming `name`. */
export function positiveInteger(
  name: string,
  value: unknown,
  fallback: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
    throw invalidArgument(
      `${name} must be an integer from 1 to ${max}, got ${typeof value === "number" ? value : typeof value}.`,
    );
  }
  return value;
}

/** The checked options of one `run()`: every field typed before anything starts. */
export interface CheckedRunOptions {
  /** The caller's deadline, counted from `run()` (queue time included); undefined if not given. */
  readonly timeoutMs: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly secrets: readonly string[];
  readonly fairnessKey: string | undefined;
}

/** Checks `run()`'s options (JavaScript callers get no compile-time check); INVALID_ARGUMENT else. */
export function checkRunOptions(options: unknown): CheckedRunOptions {
  if (options === undefined) {
    return { timeoutMs: undefined, signal: undefined, secrets: [], fairnessKey: undefined };
  }
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw invalidArgument("run() options must be an object.");
  }
  const signal = ownField(options, "signal");
  const secrets = ownField(options, "secrets");
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw invalidArgument("signal must be an AbortSignal.");
  }
  const timeoutMs = ownField(options, "timeoutMs");
  return {
    timeoutMs:
      timeoutMs === undefined
        ? undefined
        : positiveInteger("timeoutMs", timeoutMs, 1, maxTimeoutMs),
    signal,
    secrets: secrets === undefined ? [] : stringList(secrets, "secrets"),
    fairnessKey: fairnessKeyOption(ownField(options, "fairnessKey"), "fairnessKey"),
  };
}

/** Longest fairness key: a name (an endpoint set, a tenant), not a payload. */
export const maxFairnessKeyLength = 256;

/** A fairness key: a non-empty string of at most 256 characters, or absent; else INVALID_ARGUMENT. */
export function fairnessKeyOption(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "" || value.length > maxFairnessKeyLength) {
    throw invalidArgument(
      `${name} must be a non-empty string of at most ${maxFairnessKeyLength} characters.`,
    );
  }
  return value;
}
