import { describe, expect, it } from "vitest";
import {
  checkCallOptions,
  createKeyedLock,
  isCsiProxyError,
  noCallContext,
  withCallContext,
  type CallContext,
} from "../src/index.js";

const never = new Promise<never>(() => undefined);

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (isCsiProxyError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a rejection");
}

describe("checkCallOptions", () => {
  it.each<[string, unknown]>([
    ["a string", "fast"],
    ["null", null],
    ["an array", []],
    ["a misspelt timeout", { timeout: 5 }],
    ["a secrets field (run() only)", { secrets: [] }],
    ["a symbol key", { [Symbol("x")]: 1 }],
    ["a non-signal", { signal: {} }],
    ["timeoutMs zero", { timeoutMs: 0 }],
    ["timeoutMs fractional", { timeoutMs: 1.5 }],
    ["timeoutMs as a string", { timeoutMs: "5" }],
    ["timeoutMs beyond a timer's range", { timeoutMs: 2 ** 31 }],
    ["deadline NaN", { deadline: Number.NaN }],
    ["deadline -Infinity", { deadline: Number.NEGATIVE_INFINITY }],
    ["deadline as a string", { deadline: "2026-12-04T00:00:00Z" }],
    ["an invalid Date", { deadline: new Date("not a date") }],
    ["a deadline beyond a Date's range", { deadline: 9e15 }],
  ])("refuses %s with INVALID_ARGUMENT naming the method", (_, options) => {
    expect(() => checkCallOptions(options, "partitionDisk")).toThrow(
      expect.objectContaining({
        code: "INVALID_ARGUMENT",
        message: expect.stringContaining("partitionDisk") as string,
      }),
    );
  });

  it("reads own fields only", () => {
    const inherited = Object.create({ timeoutMs: "bad" }) as object;
    expect(checkCallOptions(inherited, "m")).toEqual({
      signal: undefined,
      timeoutMs: undefined,
      deadline: undefined,
    });
  });

  it("reads a deadline as epoch milliseconds, from a Date or a number; Infinity is none", () => {
    const at = Date.UTC(2030, 0, 1);
    expect(checkCallOptions({ deadline: new Date(at) }, "m").deadline).toBe(at);
    expect(checkCallOptions({ deadline: at }, "m").deadline).toBe(at);
    expect(checkCallOptions({ deadline: Infinity }, "m").deadline).toBeUndefined();
  });
});

describe("an absolute deadline", () => {
  it("fails with TIMEOUT before any work when it has already passed", async () => {
    let ran = false;
    const call = withCallContext("formatVolume", { deadline: Date.now() - 1 }, () => {
      ran = true;
      return Promise.resolve();
    });
    await expect(call).rejects.toMatchObject({
      code: "TIMEOUT",
      message: expect.stringContaining("formatVolume did not finish before its deadline") as string,
    });
    expect(ran).toBe(false);
  });

  it("gives each call of a handler only what is left, unlike a timeoutMs reused per call", async () => {
    const deadline = Date.now() + 60_000;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await withCallContext("second", { deadline }, (context) => {
      expect(context.remainingMs()).toBeLessThanOrEqual(60_000 - 50);
      expect(context.runOptions().timeoutMs).toBeLessThanOrEqual(60_000 - 50);
      return Promise.resolve();
    });
  });

  it("ends raced work with TIMEOUT when it comes before timeoutMs", async () => {
    const call = withCallContext("m", { deadline: Date.now() + 20, timeoutMs: 600_000 }, (c) =>
      c.race(never),
    );
    await expect(call).rejects.toMatchObject({ code: "TIMEOUT" });
  });

  it("lets a smaller timeoutMs win over a later deadline", async () => {
    await withCallContext("m", { deadline: Date.now() + 600_000, timeoutMs: 1_000 }, (c) => {
      expect(c.remainingMs()).toBeLessThanOrEqual(1_000);
      return Promise.resolve();
    });
  });

  it("is no deadline when weeks away (beyond a timer's range), rather than firing at once", async () => {
    await withCallContext("m", { deadline: Date.now() + 2 ** 32 }, (c) => {
      expect(c.remainingMs()).toBeUndefined();
      return Promise.resolve();
    });
  });
});

describe("withCallContext", () => {
  it("fails with ABORTED before work when the signal is already aborted", async () => {
    let ran = false;
    const call = withCallContext("rescan", { signal: AbortSignal.abort("bye") }, () => {
      ran = true;
      return Promise.resolve();
    });
    expect(await codeOf(call)).toBe("ABORTED");
    expect(ran).toBe(false);
  });

  it("ends Node-side work raced on the context with TIMEOUT at the deadline", async () => {
    const call = withCallContext("lookup", { timeoutMs: 20 }, (context) => context.race(never));
    await expect(call).rejects.toMatchObject({
      code: "TIMEOUT",
      message: expect.stringContaining("lookup") as string,
    });
  });

  it("ends raced work with ABORTED, keeping the caller's reason as cause", async () => {
    const controller = new AbortController();
    const reason = new Error("gRPC deadline");
    const call = withCallContext("stage", { signal: controller.signal }, (c) => c.race(never));
    controller.abort(reason);
    await expect(call).rejects.toMatchObject({ code: "ABORTED", cause: reason });
  });

  it("gives each script the caller's signal and what is left of the deadline", async () => {
    const controller = new AbortController();
    await withCallContext("m", { signal: controller.signal, timeoutMs: 60_000 }, (context) => {
      const options = context.runOptions({ timeoutMs: 120_000, secrets: ["Key"] });
      expect(options.signal).toBe(controller.signal);
      expect(options.secrets).toEqual(["Key"]);
      expect(options.timeoutMs).toBeGreaterThan(0);
      expect(options.timeoutMs).toBeLessThanOrEqual(60_000);
      expect(context.runOptions({ timeoutMs: 10 }).timeoutMs).toBe(10);
      return Promise.resolve();
    });
  });

  it("leaves script options alone without a deadline or signal", async () => {
    await withCallContext("m", undefined, (context) => {
      expect(context.remainingMs()).toBeUndefined();
      expect(context.runOptions({ timeoutMs: 5 })).toEqual({ timeoutMs: 5 });
      expect(context.runOptions()).toEqual({});
      return Promise.resolve();
    });
  });

  it("refuses to start a script once the deadline has passed", async () => {
    let seen: CallContext | undefined;
    const call = withCallContext("m", { timeoutMs: 20 }, async (context) => {
      seen = context;
      await new Promise((resolve) => setTimeout(resolve, 80));
      context.runOptions();
    });
    expect(await codeOf(call)).toBe("TIMEOUT");
    expect(seen?.signal.aborted).toBe(true);
  });

  it("stops listening to the caller's signal when the method ends", async () => {
    const controller = new AbortController();
    let context: CallContext | undefined;
    await withCallContext("m", { signal: controller.signal }, (c) => {
      context = c;
      return Promise.resolve();
    });
    controller.abort();
    expect(context?.signal.aborted).toBe(false);
  });

  it("offers a context that never ends for host methods called on their own", async () => {
    expect(noCallContext.runOptions({ timeoutMs: 3 })).toEqual({ timeoutMs: 3 });
    expect(noCallContext.signal.aborted).toBe(false);
    expect(await noCallContext.race(Promise.resolve(4))).toBe(4);
  });
});

describe("createKeyedLock with a signal", () => {
  it("abandons a wait on abort: work never runs, the queue moves on, nothing stays held", async () => {
    const lock = createKeyedLock();
    let release!: () => void;
    const holder = lock.run("disk:1", () => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    let ran = false;
    const waiting = lock.run(
      "disk:1",
      () => {
        ran = true;
        return Promise.resolve();
      },
      controller.signal,
    );
    const after = lock.run("disk:1", () => Promise.resolve("third"));
    controller.abort();
    expect(await codeOf(waiting)).toBe("ABORTED");
    release();
    await holder;
    expect(await after).toBe("third");
    expect(ran).toBe(false);
    expect(lock.activeKeys).toEqual([]);
  });

  it("releases keys already taken when the wait for a later key is abandoned", async () => {
    const lock = createKeyedLock();
    let release!: () => void;
    const holder = lock.run("b", () => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const waiting = lock.run(["a", "b"], () => Promise.resolve(), controller.signal);
    await Promise.resolve();
    expect(lock.activeKeys).toContain("a");
    controller.abort();
    expect(await codeOf(waiting)).toBe("ABORTED");
    expect(await lock.run("a", () => Promise.resolve("a is free"))).toBe("a is free");
    release();
    await holder;
    expect(lock.activeKeys).toEqual([]);
  });

  it("fails with the context's typed reason (TIMEOUT) when a deadline ends the wait", async () => {
    const lock = createKeyedLock();
    let release!: () => void;
    const holder = lock.run("k", () => new Promise<void>((r) => (release = r)));
    const call = withCallContext("unmountVolume", { timeoutMs: 20 }, (context) =>
      lock.run("k", () => Promise.resolve(), context.signal),
    );
    expect(await codeOf(call)).toBe("TIMEOUT");
    release();
    await holder;
    expect(lock.activeKeys).toEqual([]);
  });

  it("runs nothing when the signal is already aborted, even with the key free", async () => {
    const lock = createKeyedLock();
    let ran = false;
    const call = lock.run(
      "k",
      () => {
        ran = true;
        return Promise.resolve();
      },
      AbortSignal.abort(),
    );
    expect(await codeOf(call)).toBe("ABORTED");
    expect(ran).toBe(false);
    expect(lock.activeKeys).toEqual([]);
  });
});
