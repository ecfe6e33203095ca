/** The few kernel calls the waiter needs; the Win32 binding supplies them, tests fake them. */
export interface WaitPrimitives {
  /** CreateEventW(NULL, FALSE, FALSE, NULL): an auto-reset event used to re-arm a wait. */
  createWakeEvent(): number;
  /** SetEvent. */
  setEvent(event: number): void;
  /** WaitForMultipleObjects(n, handles, FALSE, INFINITE) off the event loop; `index` is its result. */
  waitAny(handles: readonly number[], callback: (error: unknown, index: number) => void): void;
}

/** MAXIMUM_WAIT_OBJECTS is 64; one slot per group is the wake event. */
const PER_GROUP = 63;

interface Pending {
  resolve(): void;
  reject(error: unknown): void;
}

interface Group {
  wake: number;
  entries: Map<number, Pending>;
  armed: boolean;
}

/**
 * Waits for many manual-reset events with one worker thread per 63 of them.
 *
 * A blocking wait per operation (GetOverlappedResult with bWait=TRUE through koffi's `.async`)
 * would hold one libuv pool thread (4 by default) per pending read and per listening instance,
 * so a few endpoints and connections would starve the pool and deadlock every fs call too.
 */
export class EventWaiter {
  readonly #primitives: WaitPrimitives;
  readonly #groups: Group[] = [];

  constructor(primitives: WaitPrimitives) {
    this.#primitives = primitives;
  }

  /** Resolves once `event` is signalled; the caller closes the event afterwards, never before. */
  wait(event: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let group = this.#groups.find((candidate) => candidate.entries.size < PER_GROUP);
      if (group === undefined) {
        group = { wake: this.#primitives.createWakeEvent(), entries: new Map(), armed: false };
        this.#groups.push(group);
      }
      group.entries.set(event, { resolve, reject });
      if (group.armed) this.#primitives.setEvent(group.wake);
      else this.#arm(group);
    });
  }

  /** How many events are being waited for (tests and diagnostics). */
  get pending(): number {
    return this.#groups.reduce((sum, group) => sum + group.entries.size, 0);
  }

  #arm(group: Group): void {
    // An idle group holds no worker, so a closed server lets the process exit.
    if (group.entries.size === 0) {
      group.armed = false;
      return;
    }
    group.armed = true;
    const handles = [group.wake, ...group.entries.keys()];
    this.#primitives.waitAny(handles, (error, index) => {
      if (error !== null && error !== undefined) {
        this.#fail(group, error);
        return;
      }
      if (index > 0 && index < handles.length) {
        const event = handles[index] as number;
        const pending = group.entries.get(event);
        group.entries.delete(event);
        pending?.resolve();
      } else if (index !== 0) {
        this.#fail(group, new Error(`WaitForMultipleObjects returned ${index}`));
        return;
      }
      this.#arm(group);
    });
  }

  #fail(group: Group, error: unknown): void {
    const entries = [...group.entries.values()];
    group.entries.clear();
    group.armed = false;
    for (const pending of entries) pending.reject(error);
  }
}
