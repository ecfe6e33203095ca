import { checkCallOptions, type CallOptions } from "./call-options.js";
import { CsiProxyError, isCsiProxyError } from "./errors.js";
import { maxTimeoutMs } from "./run-options.js";
import type { RunOptions } from "./types.js";

/**
 * One group method call's deadline and cancellation, handed to every host method it calls so
 * lock waits, scripts and Node-side work all draw on the same budget.
 */
export interface CallContext {
  /** The method's name, for messages. */
  readonly method: string;
  /**
   * Aborts when the caller's signal aborts or the deadline passes; its `reason` is the
   * `CsiProxyError` (`ABORTED` or `TIMEOUT`) the method fails with. Never aborts without either.
   */
  readonly signal: AbortSignal;
  /** Milliseconds left before the deadline (0 once passed); `undefined` without a deadline. */
  remainingMs(): number | undefined;
  /** Throws the method's `ABORTED` or `TIMEOUT` error once the call is over. */
  throwIfDone(): void;
  /**
   * Options for one `shell.run()`: the caller's signal, what is left of the deadline (or
   * `extra.timeoutMs` when smaller) and the caller's fairness key. Throws instead when the call
   * is already over.
   */
  runOptions(extra?: RunOptions): RunOptions;
  /**
   * Settles as `work` does, or rejects with the method's error as soon as the call is over:
   * for Node-side work that cannot itself be cancelled (a DNS lookup, a file system call).
   */
  race<T>(work: Promise<T>): Promise<T>;
}

/** The error a call ends with when `signal` aborted: its reason if typed, else `ABORTED`. */
export function abortError(signal: AbortSignal, what: string): CsiProxyError {
  const reason: unknown = signal.reason;
  if (isCsiProxyError(reason)) return reason;
  return new CsiProxyError(`${what} was aborted.`, { code: "ABORTED", cause: reason });
}

class MethodContext implements CallContext {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly deadline: number | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly onCallerAbort = (): void => {
    const reason: unknown = this.caller?.reason;
    this.controller.abort(
      new CsiProxyError(`${this.method} was aborted.`, { code: "ABORTED", cause: reason }),
    );
  };

  constructor(
    readonly method: string,
    private readonly caller: AbortSignal | undefined,
    private readonly budget: Budget | undefined,
    private readonly fairnessKey: string | undefined,
  ) {
    this.signal = this.controller.signal;
    if (budget !== undefined) {
      this.deadline = performance.now() + budget.ms;
      this.timer = setTimeout(() => this.expire(), budget.ms);
    }
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener("abort", this.onCallerAbort, { once: true });
  }

  remainingMs(): number | undefined {
    if (this.deadline === undefined) return undefined;
    return Math.max(0, Math.floor(this.deadline - performance.now()));
  }

  throwIfDone(): void {
    // The timer may lag behind a busy event loop; the clock decides.
    if (!this.signal.aborted && this.remainingMs() === 0) this.expire();
    if (this.signal.aborted) throw abortError(this.signal, this.method);
  }

  runOptions(extra: RunOptions = {}): RunOptions {
    this.throwIfDone();
    const remaining = this.remainingMs();
    const timeoutMs =
      remaining === undefined
        ? extra.timeoutMs
        : Math.max(1, Math.min(remaining, extra.timeoutMs ?? remaining));
    // The caller's own signal, not this.signal: a script cut by the deadline must say TIMEOUT.
    const signal = this.caller ?? extra.signal;
    const fairnessKey = extra.fairnessKey ?? this.fairnessKey;
    return {
      ...extra,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(signal === undefined ? {} : { signal }),
      ...(fairnessKey === undefined ? {} : { fairnessKey }),
    };
  }

  race<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(abortError(this.signal, this.method));
      if (this.signal.aborted) onAbort();
      else this.signal.addEventListener("abort", onAbort, { once: true });
      work.then(
        (value) => {
          this.signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          this.signal.removeEventListener("abort", onAbort);
          // Passed on as the work rejected: the method's own errors keep their type.
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          reject(error);
        },
      );
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener("abort", this.onCallerAbort);
  }

  private expire(): void {
    this.controller.abort(
      new CsiProxyError(`${this.method} did not finish ${this.budget?.what ?? "in time"}.`, {
        code: "TIMEOUT",
      }),
    );
  }
}

/**
 * Runs one group method under the caller's {@link CallOptions}: checks them (INVALID_ARGUMENT
 * before anything runs), fails with `ABORTED`/`TIMEOUT` if the call is already over, and hands
 * `work` the context every host call takes.
 *
 * @example
 * ```ts
 * async listQuotas(request: ListQuotasRequest, options?: CallOptions) {
 *   return withCallContext("listQuotas", options, (context) => this.host.listQuotas(context));
 * }
 * ```
 */
export async function withCallContext<T>(
  method: string,
  options: CallOptions | undefined,
  work: (context: CallContext) => Promise<T>,
): Promise<T> {
  const { signal, timeoutMs, deadline, fairnessKey } = checkCallOptions(options, method);
  const context = new MethodContext(method, signal, budgetOf(timeoutMs, deadline), fairnessKey);
  try {
    context.throwIfDone();
    return await work(context);
  } finally {
    context.dispose();
  }
}

/** What a call may spend, and how its TIMEOUT message says it. */
interface Budget {
  readonly ms: number;
  readonly what: string;
}

/** The earlier of a relative and an absolute deadline, as a budget counted from now. */
function budgetOf(timeoutMs: number | undefined, deadline: number | undefined): Budget | undefined {
  const relative =
    timeoutMs === undefined
      ? undefined
      : { ms: timeoutMs, what: `within its ${timeoutMs} ms deadline` };
  if (deadline === undefined) return relative;
  const left = Math.max(0, Math.floor(deadline - Date.now()));
  // Node keeps no longer timer; a deadline weeks away is no deadline for one call.
  if (left > maxTimeoutMs) return relative;
  if (relative !== undefined && relative.ms <= left) return relative;
  return { ms: left, what: `before its deadline (${new Date(deadline).toISOString()})` };
}

const neverAborted = new AbortController().signal;

/** A context without deadline or signal: what host methods use when called on their own. */
export const noCallContext: CallContext = Object.freeze({
  method: "call",
  signal: neverAborted,
  remainingMs: () => undefined,
  throwIfDone: () => undefined,
  runOptions: (extra: RunOptions = {}) => extra,
  race: <T>(work: Promise<T>) => work,
});
