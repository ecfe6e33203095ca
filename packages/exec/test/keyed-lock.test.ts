import { describe, expect, it } from "vitest";
import { createKeyedLock } from "../src/index.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("createKeyedLock", () => {
  it("runs work on one key one at a time, in arrival order", async () => {
    const lock = createKeyedLock();
    const log: string[] = [];
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      [1, 2, 3, 4].map((n) =>
        lock.run("disk:1", async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          log.push(`start ${n}`);
          await tick();
          log.push(`end ${n}`);
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    expect(log).toEqual([
      "start 1",
      "end 1",
      "start 2",
      "end 2",
      "start 3",
      "end 3",
      "start 4",
      "end 4",
    ]);
    expect(lock.activeKeys).toEqual([]);
  });

  it("runs work on different keys in parallel", async () => {
    const lock = createKeyedLock();
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      ["a", "b", "c"].map((key) =>
        lock.run(key, async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await tick();
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(3);
  });

  it("takes several keys without deadlock, whatever order callers name them in", async () => {
    const lock = createKeyedLock();
    const results = await Promise.all([
      lock.run(["x", "y"], async () => (await tick(), 1)),
      lock.run(["y", "x"], async () => (await tick(), 2)),
      lock.run(["y"], async () => (await tick(), 3)),
    ]);
    expect(results).toEqual([1, 2, 3]);
  });

  it("releases the key when work throws", async () => {
    const lock = createKeyedLock();
    await expect(lock.run("k", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await lock.run("k", () => Promise.resolve("next"))).toBe("next");
    expect(lock.activeKeys).toEqual([]);
  });
});
