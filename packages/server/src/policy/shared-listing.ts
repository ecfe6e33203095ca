/** A listing's answer and when the host call that produced it started (`performance.now()`). */
export interface Listed<T> {
  readonly value: T;
  readonly at: number;
}

interface Run<T> {
  readonly at: number;
  readonly promise: Promise<Listed<T>>;
}

/**
 * One host listing shared by every decision that needs it: a caller asks for an answer read by a
 * call that started no earlier than `notBefore`, and gets the call in flight when it qualifies,
 * else the next one, which starts as soon as the one in flight ends. So however many decisions
 * wait at once, at most one listing runs and one more is pending.
 */
export class SharedListing<T> {
  readonly #load: () => Promise<T>;
  readonly #now: () => number;
  #running: Run<T> | undefined;
  #next: Promise<Listed<T>> | undefined;
  #last: Listed<T> | undefined;

  constructor(load: () => Promise<T>, now: () => number = () => performance.now()) {
    this.#load = load;
    this.#now = now;
  }

  /** The newest answer read so far, if any (it may be old: check `at`). */
  get last(): Listed<T> | undefined {
    return this.#last;
  }

  /** The listing under way, when it started at or after `notBefore`; it starts none. */
  running(notBefore: number): Promise<Listed<T>> | undefined {
    return this.#running !== undefined && this.#running.at >= notBefore
      ? this.#running.promise
      : undefined;
  }

  /** An answer read by a host call that started at or after `notBefore`. */
  get(notBefore: number): Promise<Listed<T>> {
    if (this.#last !== undefined && this.#last.at >= notBefore) return Promise.resolve(this.#last);
    const running = this.#running;
    if (running === undefined) return this.#start().promise;
    if (running.at >= notBefore) return running.promise;
    // The one in flight started too early: wait for it, then read again (once for all waiting).
    this.#next ??= running.promise
      .catch(() => undefined)
      .then(() => {
        this.#next = undefined;
        return this.#running?.at !== undefined && this.#running.at >= notBefore
          ? this.#running.promise
          : this.#start().promise;
      });
    return this.#next;
  }

  /** Records an answer the host gave some other way (an allowed call's own answer). */
  learn(value: T, at: number): void {
    if (this.#last === undefined || at > this.#last.at) this.#last = { value, at };
  }

  #start(): Run<T> {
    const at = this.#now();
    const promise = this.#load().then(
      (value) => {
        if (this.#running?.promise === promise) this.#running = undefined;
        this.learn(value, at);
        return { value, at };
      },
      (error: unknown) => {
        if (this.#running?.promise === promise) this.#running = undefined;
        throw error;
      },
    );
    const run = { at, promise };
    this.#running = run;
    return run;
  }
}
