import { invalidArgument } from "./errors.js";
import {
  fairnessKeyOption,
  isAbortSignal,
  maxTimeoutMs,
  ownField,
  positiveInteger,
} from "./run-options.js";

/**
 * The second argument of every group method: the caller's deadline and cancellation, with the
 * names and meaning of {@link @csi-proxy/exec!RunOptions}, but covering the whole method (lock
 * waits, every script it runs, the Node-side work), not each script.
 */
export interface CallOptions {
  /** Give up (`ABORTED`) when this aborts; a running script's process is ended and replaced. */
  signal?: AbortSignal | undefined;
  /** Give up (`TIMEOUT`) once this many milliseconds have passed since the method was called. */
  timeoutMs?: number | undefined;
  /**
   * Give up (`TIMEOUT`) at this moment (a `Date`, or epoch milliseconds as `Date.now()` counts
   * them), as Go's `context.WithDeadline`: one value serves every call a handler makes, each
   * getting only what is left. `Infinity` means none (what `@grpc/grpc-js`'s `getDeadline()`
   * returns without one); a moment already past fails with `TIMEOUT` before the host is touched.
   * With `timeoutMs` too, the earlier of the two wins.
   */
  deadline?: Date | number | undefined;
  /**
   * Whose turn every script of the method takes in the pool's queue ({@link RunOptions}'s
   * `fairnessKey`): a server passes the caller's endpoint set.
   */
  fairnessKey?: string | undefined;
}

/** {@link CallOptions} once checked. */
export interface CheckedCallOptions {
  /** The caller's signal; `undefined` without one. */
  readonly signal: AbortSignal | undefined;
  /** The checked timeout in milliseconds; `undefined` without one. */
  readonly timeoutMs: number | undefined;
  /** Epoch milliseconds; `undefined` without a deadline (or with `Infinity`). */
  readonly deadline: number | undefined;
  /** The checked fairness key; `undefined` without one. */
  readonly fairnessKey: string | undefined;
}

const callOptionNames = new Set(["signal", "timeoutMs", "deadline", "fairnessKey"]);
// The range a Date can hold (ECMA-262, 21.4.1.1): beyond it there is no moment to wait for.
const maxEpochMs = 8.64e15;

/**
 * Checks a method's options (JavaScript callers get no compile-time check): own fields only,
 * unknown names refused so a misspelt `timeout` is not silently ignored; INVALID_ARGUMENT else.
 */
export function checkCallOptions(options: unknown, method: string): CheckedCallOptions {
  if (options === undefined)
    return { signal: undefined, timeoutMs: undefined, deadline: undefined, fairnessKey: undefined };
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw invalidArgument(
      `${method}: options must be an object ({ signal?, timeoutMs?, deadline?, fairnessKey? }).`,
    );
  }
  for (const key of Reflect.ownKeys(options)) {
    if (typeof key !== "string" || !callOptionNames.has(key)) {
      throw invalidArgument(
        `${method}: unknown option ${JSON.stringify(String(key))}; options are signal, timeoutMs, deadline and fairnessKey.`,
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
    deadline: epochDeadline(ownField(options, "deadline"), method),
    fairnessKey: fairnessKeyOption(ownField(options, "fairnessKey"), `${method}: fairnessKey`),
  };
}

function epochDeadline(value: unknown, method: string): number | undefined {
  if (value === undefined || value === Number.POSITIVE_INFINITY) return undefined;
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== "number" || !Number.isFinite(ms) || Math.abs(ms) > maxEpochMs) {
    throw invalidArgument(
      `${method}: deadline must be a valid Date, epoch milliseconds or Infinity.`,
    );
  }
  return ms;
}
