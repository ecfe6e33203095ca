/** A listing's answer and when the host call that produced it started (`performance.now()`). */
export interface Listed<T> {
  readonly value: T;
  readonly at: number;
}

interface Run<T> {
  readonly at: number;
  readonly promise: Promise<Listed<T>>;
}

/** One lane's listings: the one in flight and the one waiting to follow it. */
interface Lane<T> {
  running: Run<T> | undefined;
  next: Promise<Listed<T>> | undefined;
}

/**
 * One host listing shared by every decision that needs it, run in the PowerShell pool lane of
 * the caller that needs it (its fairness key): a caller asks for an answer read by a call that
 * started no earlier than `notBefore`, and gets the newest answer any lane read when it
 * qualifies, else its own lane's call in flight when that qualifies, else the next one, which
 * starts as soon as the one in flight ends. So however many decisions of one lane wait at once,
 * at most one listing runs and one more is pending in that lane; and one caller's listings take
 * its own turns, never another's (a flood of refusals cannot hold the process another set is
 * left).
 */
export class SharedListing<T> {
  readonly #load: (lane: string | undefined) => Promise<T>;
  readonly #now: () => number;
  readonly #lanes = new Map<string | undefined, Lane<T>>();
  #last: Listed<T> | undefined;

  constructor(
    load: (lane: string | undefined) => Promise<T>,
    now: () => number = () => performance.now(),
  ) {
    this.#load = load;
    this.#now = now;
  }

  /** The newest answer read so far in any lane, if any (it may be old: check `at`). */
  get last(): Listed<T> | undefined {
    return this.#last;
  }

  /** The lane's listing under way, when it started at or after `notBefore`; it starts none. */
  running(notBefore: number, lane?: string): Promise<Listed<T>> | undefined {
    const running = this.#lanes.get(lane)?.running;
    return running !== undefined && running.at >= notBefore ? running.promise : undefined;
  }

  /** An answer read by a host call that started at or after `notBefore`, read in `lane` if need be. */
  get(notBefore: number, lane?: string): Promise<Listed<T>> {
    if (this.#last !== undefined && this.#last.at >= notBefore) return Promise.resolve(this.#last);
    const state = this.#lane(lane);
    const running = state.running;
    if (running === undefined) return this.#start(lane, state).promise;
    if (running.at >= notBefore) return running.promise;
    // The one in flight started too early: wait for it, then read again (once for all waiting).
    state.next ??= running.promise
      .catch(() => undefined)
      .then(() => {
        state.next = undefined;
        return state.running !== undefined && state.running.at >= notBefore
          ? state.running.promise
          : this.#start(lane, state).promise;
      });
    return state.next;
  }

  /** Records an answer the host gave some other way (an allowed call's own answer). */
  learn(value: T, at: number): void {
    if (this.#last === undefined || at > this.#last.at) this.#last = { value, at };
  }

  #lane(lane: string | undefined): Lane<T> {
    let state = this.#lanes.get(lane);
    if (state === undefined) {
      state = { running: undefined, next: undefined };
      this.#lanes.set(lane, state);
    }
    return state;
  }

  #start(lane: string | undefined, state: Lane<T>): Run<T> {
    const at = this.#now();
    const settle = () => {
      if (state.running?.promise !== promise) return;
      state.running = undefined;
      // An idle lane keeps nothing (a set's name may come and go with the policy).
      if (state.next === undefined) this.#lanes.delete(lane);
    };
    const promise = this.#load(lane).then(
      (value) => {
        settle();
        this.learn(value, at);
        return { value, at };
      },
      (error: unknown) => {
        settle();
        throw error;
      },
    );
    const run = { at, promise };
    state.running = run;
    return run;
  }
}
