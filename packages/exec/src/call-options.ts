import { invalidArgument } from "./errors.js";
import { isAbortSignal, maxTimeoutMs, ownField, positiveInteger } from "./run-options.js";

/**
 * The second argument of every group method: the caller's deadline and cancellation, with the
 * names and meaning of {@link RunOptions}, but covering the whole method (lock waits, every
 * script it runs, the Node-side work), not each script.
 */
export interface CallOptions {
  /** Give up (`ABORTED`) when this aborts; a running script's process is ended and replaced. */
  signal?: AbortSignal | undefined;
  /** Give up (`TIMEOUT`) once this many milliseconds have passed since the method was called. */
  timeoutMs?: number | undefined;
}

/** {@link CallOptions} once checked. */
export interface CheckedCallOptions {
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number | undefined;
}

const callOptionNames = new Set(["signal", "timeoutMs"]);

/**
 * Checks a method's options (JavaScript callers get no compile-time check): own fields only,
 * unknown names refused so a misspelt `timeout` is not silently ignored; INVALID_ARGUMENT else.
 */
export function checkCallOptions(options: unknown, method: string): CheckedCallOptions {
  if (options === undefined) return { signal: undefined, timeoutMs: undefined };
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw invalidArgument(`${method}: options must be an object ({ signal?, timeoutMs? }).`);
  }
  for (const key of Reflect.ownKeys(options)) {
    if (typeof key !== "string" || !callOptionNames.has(key)) {
      throw invalidArgument(
        `${method}: unknown option ${JSON.stringify(String(key))}; options are signal and timeoutMs.`,
      );
    }
  }
  const signal = ownField(options, "signal");
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw invalidArgument(`${method}: signal must be an AbortSignal.`);
  }
  const timeoutMs = ownField(options, "timeoutMs");
  return {
    signal,
    timeoutMs:
      timeoutMs === undefined
        ? undefined
        : positiveInteger(`${method}: timeoutMs`, timeoutMs, 1, maxTimeoutMs),
  };
}
