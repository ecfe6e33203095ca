import { abortError } from "./call-context.js";

/**
 * Serialises work per resource key inside this process: work on the same key runs one at a
 * time in arrival order, work on different keys runs in parallel. Several keys are taken in
 * sorted order, so two callers asking for overlapping key sets cannot deadlock.
 */
export interface KeyedLock {
  /**
   * Runs `work` once every key is free; keys are compared exactly (normalise them first). If
   * `signal` aborts while waiting, the wait is abandoned (the queue moves on without it), keys
   * already taken are released, `work` never runs, and the call rejects with the signal's
   * `CsiProxyError` reason, or `ABORTED`.
   */
  run<T>(
    keys: string | readonly string[],
    work: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T>;
  /** Keys currently held or waited for (for tests and diagnostics). */
  readonly activeKeys: readonly string[];
}

/**
 * Creates a keyed lock.
 *
 * @example
 * ```ts
 * const locks = createKeyedLock();
 * await locks.run([`volume:${id}`, `path:${target.toLowerCase()}`], () => mount(id, target));
 * ```
 */
export function createKeyedLock(): KeyedLock {
  // A key is in the table while held; its array holds the waiters in arrival order.
  const waiters = new Map<string, (() => void)[]>();

  function release(key: string): void {
    const next = waiters.get(key)?.shift();
    // Ownership passes straight to the next waiter, so nobody can slip in between.
    if (next !== undefined) next();
    else waiters.delete(key);
  }

  function acquire(key: string, signal: AbortSignal | undefined): Promise<void> {
    const queue = waiters.get(key);
    if (queue === undefined) {
      waiters.set(key, []);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = queue.indexOf(grant);
        if (index === -1) return; // already granted: the caller releases it
        queue.splice(index, 1);
        reject(abortError(signal as AbortSignal, "Waiting for a lock"));
      };
      function grant(): void {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }
      queue.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  return {
    async run<T>(
      keys: string | readonly string[],
      work: () => Promise<T>,
      signal?: AbortSignal,
    ): Promise<T> {
      const ordered = [...new Set(typeof keys === "string" ? [keys] : keys)].sort();
      const held: string[] = [];
      try {
        for (const key of ordered) {
          if (signal?.aborted) throw abortError(signal, "Waiting for a lock");
          await acquire(key, signal);
          held.push(key);
        }
        // Granted in the same turn as an abort: the caller gave up, so nothing runs.
        if (signal?.aborted) throw abortError(signal, "Waiting for a lock");
        return await work();
      } finally {
        for (const key of held.reverse()) release(key);
      }
    },
    get activeKeys() {
      return [...waiters.keys()];
    },
  };
}
