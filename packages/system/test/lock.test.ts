import { describe, expect, it } from "vitest";
import { System } from "../src/index.js";
import { codes, FakeSystemHost, service, type FakeCall } from "./fake-host.js";

/** A hook that holds every start/stop open until released, recording when each begins and ends. */
function gate(host: FakeSystemHost) {
  const events: string[] = [];
  const waiting: (() => void)[] = [];
  host.hook = async (call: FakeCall) => {
    events.push(`begin ${call.method} ${call.name ?? ""}`);
    await new Promise<void>((resolve) => waiting.push(resolve));
    events.push(`end ${call.method} ${call.name ?? ""}`);
  };
  const releaseOne = async () => {
    // Let queued work reach the host before looking.
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    waiting.shift()?.();
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
  };
  return { events, waiting, releaseOne };
}

describe("per-service lock", () => {
  it("never overlaps calls on one service, whatever the case of its name", async () => {
    const host = new FakeSystemHost([service("MSiSCSI", codes.stopped)]);
    const system = new System({ host });
    const { events, waiting, releaseOne } = gate(host);
    const start = system.startService({ name: "MSiSCSI" });
    const stop = system.stopService({ name: "msiscsi" });
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    expect(events).toEqual(["begin startService MSiSCSI"]);
    await releaseOne();
    expect(waiting.length).toBe(1);
    await releaseOne();
    await Promise.all([start, stop]);
    expect(events).toEqual([
      "begin startService MSiSCSI",
      "end startService MSiSCSI",
      "begin stopService msiscsi",
      "end stopService msiscsi",
    ]);
    expect(host.services.get("msiscsi")?.status).toBe(codes.stopped);
  });

  it("serialises across System instances in one process", async () => {
    const host = new FakeSystemHost([service("svc", codes.stopped)]);
    const { events, releaseOne } = gate(host);
    const first = new System({ host }).startService({ name: "svc" });
    const second = new System({ host }).stopService({ name: "SVC" });
    await releaseOne();
    await releaseOne();
    await Promise.all([first, second]);
    expect(events.map((e) => e.split(" ")[0])).toEqual(["begin", "end", "begin", "end"]);
  });

  it("runs calls on different services in parallel", async () => {
    const host = new FakeSystemHost([service("a", codes.stopped), service("b", codes.stopped)]);
    const system = new System({ host });
    const { events, waiting, releaseOne } = gate(host);
    const a = system.startService({ name: "a" });
    const b = system.startService({ name: "b" });
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    // Both are inside the host at once.
    expect(waiting.length).toBe(2);
    expect(events).toEqual(["begin startService a", "begin startService b"]);
    await releaseOne();
    await releaseOne();
    await Promise.all([a, b]);
  });

  it("releases the lock when a call fails", async () => {
    const host = new FakeSystemHost([service("svc", codes.stopped, { behaviour: "stuck" })]);
    const system = new System({ host });
    await expect(system.startService({ name: "svc", timeoutMs: 10 })).rejects.toMatchObject({
      code: "TIMEOUT",
    });
    host.services.get("svc")!.behaviour = "settles";
    await system.startService({ name: "svc" });
    expect(host.services.get("svc")?.status).toBe(codes.running);
  });

  it("does not make reads wait behind a start or stop", async () => {
    const host = new FakeSystemHost([service("svc", codes.stopped)]);
    const system = new System({ host });
    const { waiting, releaseOne } = gate(host);
    const start = system.startService({ name: "svc" });
    const read = system.getService({ name: "svc" });
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    expect(waiting.length).toBe(2);
    await releaseOne();
    await releaseOne();
    await Promise.all([start, read]);
  });
});
