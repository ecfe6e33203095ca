/**
 * Serialises work per resource key inside this process: work on the same key runs one at a
 * time in arrival order, work on different keys runs in parallel. Several keys are taken in
 * sorted order, so two callers asking for overlapping key sets cannot deadlock.
 */
export interface KeyedLock {
  /** Runs `work` once every key is free; keys are compared exactly (normalise them first). */
  run<T>(keys: string | readonly string[], work: () => Promise<T>): Promise<T>;
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
  const tails = new Map<string, Promise<void>>();

  async function acquire(key: string): Promise<() => void> {
    const previous = tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    tails.set(key, tail);
    await previous;
    return () => {
      release();
      // The last holder cleans up, so the map only holds keys in use.
      if (tails.get(key) === tail) tails.delete(key);
    };
  }

  return {
    async run<T>(keys: string | readonly string[], work: () => Promise<T>): Promise<T> {
      const ordered = [...new Set(typeof keys === "string" ? [keys] : keys)].sort();
      const releases: (() => void)[] = [];
      try {
        for (const key of ordered) releases.push(await acquire(key));
        return await work();
      } finally {
        for (const release of releases.reverse()) release();
      }
    },
    get activeKeys() {
      return [...tails.keys()];
    },
  };
}
