import { describe, expect, it } from "vitest";
import {
  createPowerShellSystemHost,
  isCsiProxyError,
  serviceReportMarginMs,
  ServiceTimeoutError,
  System,
} from "../src/index.js";
import { codes, FakeSystemHost, service, type FakeCall } from "./fake-host.js";
import { FakeShell } from "./fake-shell.js";
import { publicMethods } from "@csi-proxy/test-utils";

/** A valid request for every public method; a method missing here fails the first test. */
const requests: Record<string, unknown> = {
  getBiosSerialNumber: {},
  getService: { name: "svc" },
  startService: { name: "svc" },
  stopService: { name: "svc", force: true },
};

async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return isCsiProxyError(error) ? error.code : `untyped: ${String(error)}`;
  }
  return "resolved";
}

function host(): FakeSystemHost {
  return new FakeSystemHost([
    service("svc", codes.running, { dependents: ["dep"] }),
    service("dep", codes.running),
  ]);
}

const wait = (status: number) => ({ status, startType: 3, requested: true, timedOut: false });

describe("every System method takes { signal?, timeoutMs? }", () => {
  it("the table of requests covers every public method", () => {
    expect(
      publicMethods(new System({ host: host() }))
        .map(([name]) => name)
        .sort(),
    ).toEqual(Object.keys(requests).sort());
  });

  const bad: [string, unknown][] = [
    ["a misspelt timeout", { timeout: 5 }],
    ["a signal that is no AbortSignal", { signal: {} }],
    ["timeoutMs 0", { timeoutMs: 0 }],
    ["a string", "x"],
  ];
  for (const [name] of publicMethods(new System({ host: host() }))) {
    it.each(bad)(
      `${name} refuses %s with INVALID_ARGUMENT, calling nothing`,
      async (_, options) => {
        const fake = host();
        const method = publicMethods(new System({ host: fake })).find(([n]) => n === name)![1];
        expect(await codeOf(method(requests[name], options))).toBe("INVALID_ARGUMENT");
        expect(fake.calls).toEqual([]);
      },
    );

    it(`${name} with an aborted signal is ABORTED, calling nothing`, async () => {
      const fake = host();
      const method = publicMethods(new System({ host: fake })).find(([n]) => n === name)![1];
      const signal = AbortSignal.abort(new Error("caller gave up"));
      expect(await codeOf(method(requests[name], { signal }))).toBe("ABORTED");
      expect(fake.calls).toEqual([]);
    });
  }
});

describe("a start or stop waiting for the service's lock", () => {
  it("is ABORTED without reaching the host, and the holder finishes normally", async () => {
    const fake = new FakeSystemHost([service("svc", codes.running)]);
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered = (): void => undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    fake.hook = async (call: FakeCall) => {
      if (call.method !== "stopService") return;
      entered();
      await held;
    };
    const system = new System({ host: fake });
    const holder = system.stopService({ name: "svc" });
    await inside;
    const controller = new AbortController();
    const waiter = system.startService({ name: "SVC" }, { signal: controller.signal });
    controller.abort();
    expect(await codeOf(waiter)).toBe("ABORTED");
    release();
    await expect(holder).resolves.toEqual({});
    expect(fake.log()).toEqual(["stopService svc"]);
    expect(fake.services.get("svc")?.status).toBe(codes.stopped);
  });
});

describe("one deadline across every script of a call (PowerShell host on a fake shell)", () => {
  function forcedStop(): FakeShell {
    return new FakeShell()
      .answer("system.dependents", {
        name: "A",
        status: 4,
        dependents: [
          { parent: "A", name: "B", status: 4 },
          { parent: "B", name: "C", status: 4 },
        ],
      })
      .answer("system.stopService", wait(1), wait(1), wait(1));
  }

  it("gives every run the caller's signal and what is left of one deadline", async () => {
    const shell = forcedStop();
    const system = new System({ host: createPowerShellSystemHost(shell) });
    const controller = new AbortController();
    await system.stopService(
      { name: "A", force: true },
      { signal: controller.signal, timeoutMs: 60_000 },
    );
    expect(shell.runs.map((run) => run.script.name)).toEqual([
      "system.dependents",
      "system.stopService",
      "system.stopService",
      "system.stopService",
    ]);
    const bounds = shell.runs.map((run) => run.options?.timeoutMs ?? Infinity);
    for (const [i, bound] of bounds.entries()) {
      expect(bound).toBeLessThanOrEqual(60_000);
      if (i > 0) expect(bound).toBeLessThanOrEqual(bounds[i - 1]!);
    }
    expect(shell.runs.every((run) => run.options?.signal === controller.signal)).toBe(true);
    // Each script's own wait ends a margin before its process may be killed, so it can report.
    for (const run of shell.runs.slice(1)) {
      const scriptWait = run.params?.TimeoutMs as number;
      expect(scriptWait).toBeLessThanOrEqual(60_000 - serviceReportMarginMs);
      expect(scriptWait).toBeLessThan(run.options!.timeoutMs!);
    }
  });

  it("keeps the request's shorter wait and the process grace beyond it", async () => {
    const shell = new FakeShell().answer("system.startService", wait(4));
    const system = new System({ host: createPowerShellSystemHost(shell) });
    await system.startService({ name: "A", timeoutMs: 5_000 }, { timeoutMs: 60_000 });
    expect(shell.runs[0]?.params?.TimeoutMs).toBe(5_000);
    expect(shell.runs[0]?.options?.timeoutMs).toBe(15_000);
  });

  const serviceA = (status: number) => ({ name: "A", displayName: "A", status, startType: 3 });

  it("fails with TIMEOUT, starting nothing, when the deadline leaves no time to wait", async () => {
    const shell = new FakeShell()
      .answer("system.getService", serviceA(1))
      .answer("system.startService", wait(4));
    const system = new System({ host: createPowerShellSystemHost(shell) });
    const error = await system
      .startService({ name: "A" }, { timeoutMs: 1_000 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "TIMEOUT" });
    expect((error as Error).message).toMatch(/nothing was asked of it/);
    // Issue #16 §4: the method's name once, not "startService(A) failed: startService(A): ...".
    expect((error as Error).message.match(/startService\(A\)/g)).toHaveLength(1);
    expect(shell.runs.map((run) => run.script.name)).toEqual(["system.getService"]);
  });

  // Issue #16 §4: nothing to wait for, so no deadline is too short.
  it("succeeds at once for a running service however little of the deadline is left", async () => {
    const shell = new FakeShell().answer("system.getService", serviceA(4));
    const system = new System({ host: createPowerShellSystemHost(shell) });
    await system.startService({ name: "A" }, { timeoutMs: serviceReportMarginMs });
    expect(shell.runs.map((run) => run.script.name)).toEqual(["system.getService"]);
  });

  it("succeeds at once for a stopped service however little of the deadline is left", async () => {
    const shell = new FakeShell().answer("system.getService", serviceA(1));
    const system = new System({ host: createPowerShellSystemHost(shell) });
    await system.stopService({ name: "A" }, { timeoutMs: serviceReportMarginMs });
    expect(shell.runs.map((run) => run.script.name)).toEqual(["system.getService"]);
  });

  it("stops before the next dependent's script once the deadline leaves no time to wait", async () => {
    const shell = forcedStop().answer("system.getService", {
      name: "C",
      displayName: "C",
      status: 4,
      startType: 3,
    });
    const system = new System({ host: createPowerShellSystemHost(shell) });
    const error = await system
      .stopService({ name: "A", force: true }, { timeoutMs: serviceReportMarginMs })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "TIMEOUT" });
    // Only a read of the still running dependent: no stop was asked for.
    expect(shell.runs.map((run) => run.script.name)).toEqual([
      "system.dependents",
      "system.getService",
    ]);
  });

  it("reports a service still pending when the call's deadline cut its wait", async () => {
    const fake = new FakeSystemHost([service("svc", codes.stopped, { behaviour: "stuck" })]);
    const system = new System({ host: fake });
    const error = await system
      .startService({ name: "svc", timeoutMs: 30_000 }, { timeoutMs: 10_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceTimeoutError);
    const given = fake.calls[0]!.wait!.timeoutMs;
    expect(given).toBeLessThanOrEqual(10_000 - serviceReportMarginMs);
    expect(error).toMatchObject({ lastStatus: "START_PENDING", timeoutMs: given });
  });
});
