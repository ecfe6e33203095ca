import { describe, expect, it } from "vitest";
import { EventWaiter, type WaitPrimitives } from "../src/pipes/waiter.js";

/** Fake kernel events: WaitForMultipleObjects returns the lowest signalled index, as Windows does. */
class FakeEvents implements WaitPrimitives {
  readonly signalled = new Set<number>();
  readonly waits: number[][] = [];
  #next = 1000;
  #blocked: { handles: readonly number[]; callback: (error: unknown, index: number) => void }[] =
    [];

  createWakeEvent(): number {
    return this.#next++;
  }
  setEvent(event: number): void {
    this.signalled.add(event);
    this.#settle();
  }
  waitAny(handles: readonly number[], callback: (error: unknown, index: number) => void): void {
    this.waits.push([...handles]);
    this.#blocked.push({ handles, callback });
    this.#settle();
  }
  /** Worker threads blocked in a wait right now. */
  get busyWorkers(): number {
    return this.#blocked.length;
  }
  #settle(): void {
    for (const wait of [...this.#blocked]) {
      const index = wait.handles.findIndex((h) => this.signalled.has(h));
      if (index < 0) continue;
      this.#blocked.splice(this.#blocked.indexOf(wait), 1);
      // The wake event is auto-reset; operation events stay set until closed.
      if (index === 0) this.signalled.delete(wait.handles[0] as number);
      setImmediate(() => wait.callback(null, index));
    }
  }
}

describe("EventWaiter", () => {
  it("waits for many operations with one worker per 63 events", async () => {
    const events = new FakeEvents();
    const waiter = new EventWaiter(events);
    const done: number[] = [];
    const waits = Array.from({ length: 100 }, (_, i) =>
      waiter.wait(i + 1).then(() => done.push(i + 1)),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events.busyWorkers).toBe(2);
    expect(events.waits.every((handles) => handles.length <= 64)).toBe(true);
    for (const event of [100, 5, 63, 64, 1]) events.setEvent(event);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(done.sort((a, b) => a - b)).toEqual([1, 5, 63, 64, 100]);
    for (let i = 1; i <= 100; i++) events.setEvent(i);
    await Promise.all(waits);
    expect(waiter.pending).toBe(0);
    // Nothing left to wait for: no worker stays blocked, so the process may exit.
    expect(events.busyWorkers).toBe(0);
  });

  it("re-arms through the wake event when an operation starts during a wait", async () => {
    const events = new FakeEvents();
    const waiter = new EventWaiter(events);
    const first = waiter.wait(1);
    const second = waiter.wait(2);
    expect(events.waits.at(-1)).toEqual([1000, 1]);
    events.setEvent(2);
    await second;
    expect(events.waits.some((handles) => handles.includes(2))).toBe(true);
    events.setEvent(1);
    await first;
  });

  it("rejects every waiter of a group when the wait itself fails", async () => {
    const failing: WaitPrimitives = {
      createWakeEvent: () => 1,
      setEvent: () => undefined,
      waitAny: (_handles, callback) => setImmediate(() => callback(null, 0xffffffff)),
    };
    const waiter = new EventWaiter(failing);
    await expect(waiter.wait(7)).rejects.toThrow(/4294967295/);
  });
});
