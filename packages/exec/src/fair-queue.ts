/** What the queue needs of a waiting call. */
export interface Queued {
  /** Timed out or aborted while waiting: dropped, never run. */
  readonly isSettled: boolean;
  /** Whose turn it takes (`RunOptions.fairnessKey`); `undefined`: the shared lane of unkeyed calls. */
  readonly fairnessKey?: string | undefined;
}

// Unkeyed calls share one lane, first come first served, with no cap: a library user who names
// no key sees the one FIFO queue the pool always had.
const unkeyed = "\0unkeyed";

/**
 * Calls waiting for a PowerShell process, one lane per fairness key, served in turn: the next call
 * comes from the lane after the one served last, so a key with a thousand calls queued delays
 * another key's call by at most one call per other lane. A keyed lane runs at most `cap` calls at
 * once, so one key's slow calls never hold every process.
 */
export class FairQueue<T extends Queued> {
  readonly #lanes = new Map<string, T[]>();
  readonly #busy = new Map<string, number>();
  readonly #cap: number;
  #last: string | undefined;

  /** `cap`: how many calls one keyed lane may run at once. */
  constructor(cap: number) {
    this.#cap = cap;
  }

  push(call: T): void {
    const key = laneOf(call);
    const lane = this.#lanes.get(key);
    if (lane === undefined) this.#lanes.set(key, [call]);
    else lane.push(call);
  }

  /** Takes a call out of the queue (cancelled while it waited). */
  remove(call: T): void {
    const key = laneOf(call);
    const lane = this.#lanes.get(key);
    const index = lane?.indexOf(call) ?? -1;
    if (lane === undefined || index === -1) return;
    lane.splice(index, 1);
    if (lane.length === 0) this.#lanes.delete(key);
  }

  /** Calls waiting and not settled. */
  get waiting(): number {
    let n = 0;
    for (const lane of this.#lanes.values()) n += lane.filter((c) => !c.isSettled).length;
    return n;
  }

  /** Drops every waiting call (the pool is closing). */
  clear(): void {
    this.#lanes.clear();
  }

  /** The call {@link FairQueue.take} would give now, left in the queue. */
  peek(): T | undefined {
    return this.#next()?.[0];
  }

  /**
   * The next call to run, taken out of the queue and counted as running until
   * {@link FairQueue.finished}; undefined when no lane has a call it may run now.
   */
  take(): T | undefined {
    const next = this.#next();
    if (next === undefined) return undefined;
    const [call, key, lane] = next;
    lane.shift();
    if (lane.length === 0) this.#lanes.delete(key);
    this.#busy.set(key, (this.#busy.get(key) ?? 0) + 1);
    this.#last = key;
    return call;
  }

  /** A call {@link FairQueue.take} gave has ended: its lane may run another. */
  finished(call: T): void {
    const key = laneOf(call);
    const busy = (this.#busy.get(key) ?? 0) - 1;
    if (busy > 0) this.#busy.set(key, busy);
    else this.#busy.delete(key);
  }

  // The first lane after the last one served with a call it may run (settled calls dropped).
  #next(): [T, string, T[]] | undefined {
    const keys = [...this.#lanes.keys()];
    const after = this.#last === undefined ? -1 : keys.indexOf(this.#last);
    for (let i = 1; i <= keys.length; i++) {
      const key = keys[(after + i) % keys.length] as string;
      const lane = this.#lanes.get(key) ?? [];
      while (lane[0]?.isSettled === true) lane.shift();
      const call = lane[0];
      if (call === undefined) this.#lanes.delete(key);
      else if (!this.#full(key)) return [call, key, lane];
    }
    return undefined;
  }

  #full(key: string): boolean {
    return key !== unkeyed && (this.#busy.get(key) ?? 0) >= this.#cap;
  }
}

function laneOf(call: Queued): string {
  return call.fairnessKey ?? unkeyed;
}
