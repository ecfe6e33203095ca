// The pool's queue order, deterministically: lanes take turns and a keyed lane holds at most its
// cap, whatever one key has queued (issue #37: one tenant's calls starved another's).
import { describe, expect, it } from "vitest";
import { FairQueue } from "../src/fair-queue.js";
import { fairnessCap } from "../src/session-pool.js";

interface Fake {
  readonly name: string;
  readonly fairnessKey: string | undefined;
  isSettled: boolean;
}

const call = (fairnessKey: string | undefined, name: string): Fake => ({
  name,
  fairnessKey,
  isSettled: false,
});

/** Takes calls while `free` processes are left, as the pool does; returns their names. */
function drain(queue: FairQueue<Fake>, free: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < free; i++) {
    const next = queue.take();
    if (next === undefined) break;
    out.push(next.name);
  }
  return out;
}

describe("the pool's fair queue", () => {
  it("gives another key the next turn, however many calls one key has queued", () => {
    const queue = new FairQueue<Fake>(3);
    for (let i = 0; i < 100; i++) queue.push(call("a", `a${i}`));
    queue.push(call("b", "b0"));
    expect(drain(queue, 2)).toEqual(["a0", "b0"]);
  });

  it("keeps one key to its cap, so a process is left for another key's call", () => {
    const queue = new FairQueue<Fake>(fairnessCap(4));
    for (let i = 0; i < 100; i++) queue.push(call("a", `a${i}`));
    expect(drain(queue, 4)).toEqual(["a0", "a1", "a2"]);
    expect(queue.peek()).toBeUndefined();
    queue.push(call("b", "b0"));
    expect(drain(queue, 1)).toEqual(["b0"]);
  });

  it("lets a lane run again once one of its calls has finished", () => {
    const queue = new FairQueue<Fake>(1);
    const first = call("a", "a0");
    queue.push(first);
    queue.push(call("a", "a1"));
    expect(drain(queue, 2)).toEqual(["a0"]);
    queue.finished(first);
    expect(drain(queue, 2)).toEqual(["a1"]);
  });

  it("serves unkeyed calls first come first served, without a cap (a library's pool as before)", () => {
    const queue = new FairQueue<Fake>(1);
    for (let i = 0; i < 5; i++) queue.push(call(undefined, `u${i}`));
    expect(drain(queue, 5)).toEqual(["u0", "u1", "u2", "u3", "u4"]);
  });

  it("drops calls that timed out or were aborted while waiting", () => {
    const queue = new FairQueue<Fake>(2);
    const gone = call("a", "a0");
    queue.push(gone);
    queue.push(call("a", "a1"));
    gone.isSettled = true;
    expect(queue.waiting).toBe(1);
    expect(drain(queue, 2)).toEqual(["a1"]);
    const removed = call("b", "b0");
    queue.push(removed);
    queue.remove(removed);
    expect(queue.take()).toBeUndefined();
  });

  it("takes turns among three keys", () => {
    const queue = new FairQueue<Fake>(10);
    for (const key of ["a", "b", "c"])
      for (let i = 0; i < 3; i++) queue.push(call(key, `${key}${String(i)}`));
    expect(drain(queue, 6)).toEqual(["a0", "b0", "c0", "a1", "b1", "c1"]);
  });

  it("caps at all processes but one, and at one for a pool of one", () => {
    expect([1, 2, 4, 64].map(fairnessCap)).toEqual([1, 1, 3, 63]);
  });
});
