/** What every method without result fields resolves, in every group (upstream's empty messages). */
export type EmptyResponse = Record<string, never>;

/** How calls reach PowerShell: a process per call, or long-lived processes fed framed requests. */
export type ExecMode = "session" | "spawn";

/**
 * A value that can travel to a script parameter. Strings arrive byte-exact, integers beyond
 * 2^53 travel as `bigint` (bound as `[decimal]`, which converts to `[uint64]` parameters),
 * objects arrive as `[pscustomobject]` and arrays as `[object[]]`.
 */
export type ParamValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | readonly ParamValue[]
  | { readonly [key: string]: ParamValue | undefined };

/** Parameters bound by name to a script's `param()` block; `undefined` entries are not bound. */
export type Params = Readonly<Record<string, ParamValue | undefined>>;

/** Per-call options of {@link PowerShell.run}. */
export interface RunOptions {
  /** Kill the call's process and fail with `TIMEOUT` after this many milliseconds. */
  timeoutMs?: number;
  /** Abort the call (`ABORTED`); a running call's process is killed. */
  signal?: AbortSignal;
  /**
   * Names of parameters whose values are secret, beyond the automatic ones (names containing
   * password, secret, token or credential). Their values are redacted from every error field,
   * message and diagnostics event.
   */
  secrets?: readonly string[];
  /**
   * Whose turn the call takes in the pool's queue: calls with one key wait in one lane, lanes take
   * turns, and one key's calls hold at most all processes but one (`poolSize - 1`, at least 1).
   * A server passes its caller's endpoint set, so one driver's flood never starves another.
   * Calls without a key share one first-come-first-served lane, as before keys existed.
   */
  fairnessKey?: string;
}
