import type { WireLimits } from "../wire-limits.js";

/** A connection the server can end at once. */
export interface Droppable {
  /** Closes it now, whatever it is doing. */
  hangUp(): void;
}

/** The requests an endpoint set's connections may hold unfinished past the grace period. */
export interface HeldBudget {
  /** Takes a place for one more held request; false when the set holds all it may. */
  take(): boolean;
  /** Gives a place back (the request finished, was reset, or its connection closed). */
  give(): void;
}

/** A connection's place in its endpoint set. */
export interface Admission {
  /** Its endpoint set's held requests. */
  readonly held: HeldBudget;
  /** The connection that holds the place, so shutdown can end it. */
  attach(connection: Droppable): void;
  /** Called once the connection is closed; later calls do nothing. */
  release(): void;
}

/** A budget that is never short: a connection not counted against any endpoint set. */
export const unlimitedHeld: HeldBudget = { take: () => true, give: () => undefined };

interface SetCount {
  connections: number;
  held: number;
}

/**
 * Every connection the server holds, counted per endpoint set: a set at its connection limit
 * gets no more, and its held requests are counted against its own budget, so one set's flood
 * never takes another's places; on shutdown every connection is ended whatever its client does.
 */
export class Connections {
  readonly #limits: WireLimits;
  readonly #sets = new Map<string, SetCount>();
  readonly #live = new Set<Droppable>();
  #stopped = false;

  constructor(limits: WireLimits) {
    this.#limits = limits;
  }

  /** A place for a new connection of `endpointSet`, or undefined when it is full or serving has stopped. */
  admit(endpointSet: string): Admission | undefined {
    let count = this.#sets.get(endpointSet);
    if (count === undefined) {
      count = { connections: 0, held: 0 };
      this.#sets.set(endpointSet, count);
    }
    if (this.#stopped || count.connections >= this.#limits.maxConnectionsPerSet) return undefined;
    count.connections += 1;
    const set = count;
    const held: HeldBudget = {
      take: () => {
        if (set.held >= this.#limits.maxHeldRequestsPerSet) return false;
        set.held += 1;
        return true;
      },
      give: () => {
        set.held = Math.max(0, set.held - 1);
      },
    };
    let connection: Droppable | undefined;
    let released = false;
    return {
      held,
      attach: (attached) => {
        connection = attached;
        this.#live.add(attached);
      },
      release: () => {
        if (released) return;
        released = true;
        if (connection !== undefined) this.#live.delete(connection);
        set.connections -= 1;
      },
    };
  }

  /** Admits nothing more (shutdown has begun). */
  stop(): void {
    this.#stopped = true;
  }

  /** Ends every connection still open. */
  dropAll(): void {
    for (const connection of [...this.#live]) connection.hangUp();
  }
}
