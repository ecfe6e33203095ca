import { describe, expect, it, vi } from "vitest";
import {
  CsiProxyError,
  isCsiProxyError,
  ServiceHasDependentsError,
  ServiceNotFoundError,
  ServiceStateError,
  ServiceStatus,
  ServiceTimeoutError,
  StartType,
  System,
} from "../src/index.js";
import { codes, FakeSystemHost, powerShellError, service } from "./fake-host.js";
import { FakeShell } from "./fake-shell.js";

async function rejection(promise: Promise<unknown>): Promise<CsiProxyError> {
  try {
    await promise;
  } catch (error) {
    if (isCsiProxyError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** A → B → C (B depends on A, C on B), all running, as in upstream's unit test. */
function chain(): FakeSystemHost {
  return new FakeSystemHost([
    service("A", codes.running, { dependents: ["B"] }),
    service("B", codes.running, { dependents: ["C"] }),
    service("C", codes.running),
  ]);
}

describe("getBiosSerialNumber", () => {
  it("trims the padding firmware and wmic left around the serial", async () => {
    const host = new FakeSystemHost();
    host.biosSerial = "  VMware-42 00 a6 a6 02 95 ec 5e-89 05 0a cd b1 3b aa c6   ";
    const system = new System({ host });
    expect(await system.getBiosSerialNumber()).toEqual({
      serialNumber: "VMware-42 00 a6 a6 02 95 ec 5e-89 05 0a cd b1 3b aa c6",
    });
  });

  it("returns an empty serial when the BIOS reports none", async () => {
    const host = new FakeSystemHost();
    host.biosSerial = null;
    expect(await new System({ host }).getBiosSerialNumber({})).toEqual({ serialNumber: "" });
  });

  it("keeps the code of a host failure and names the operation", async () => {
    const host = new FakeSystemHost();
    host.fail(
      "getBiosSerialNumber",
      powerShellError("HRESULT 0x80041003,Get-CimInstance", "Access denied"),
    );
    const error = await rejection(new System({ host }).getBiosSerialNumber());
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.message).toMatch(/^getBiosSerialNumber failed: Access denied/);
  });
});

describe("getService", () => {
  it("maps Status and StartType to upstream's enums and names", async () => {
    const host = new FakeSystemHost([
      service("MSiSCSI", codes.running, {
        displayName: "Microsoft iSCSI Initiator Service",
        startType: 2,
      }),
    ]);
    expect(await new System({ host }).getService({ name: "MSiSCSI" })).toEqual({
      displayName: "Microsoft iSCSI Initiator Service",
      status: ServiceStatus.RUNNING,
      statusName: "RUNNING",
      startType: StartType.AUTOMATIC,
      startTypeName: "AUTOMATIC",
    });
  });

  it.each([
    [1, "STOPPED"],
    [2, "START_PENDING"],
    [3, "STOP_PENDING"],
    [5, "CONTINUE_PENDING"],
    [6, "PAUSE_PENDING"],
    [7, "PAUSED"],
  ] as const)("status %i reads as %s", async (code, name) => {
    const host = new FakeSystemHost([service("svc", code)]);
    const response = await new System({ host }).getService({ name: "svc" });
    expect(response.status).toBe(code);
    expect(response.statusName).toBe(name);
  });

  it.each([
    [0, "BOOT"],
    [1, "SYSTEM"],
    [3, "MANUAL"],
    [4, "DISABLED"],
  ] as const)("start type %i reads as %s", async (code, name) => {
    const host = new FakeSystemHost([service("svc", codes.stopped, { startType: code })]);
    const response = await new System({ host }).getService({ name: "svc" });
    expect(response.startType).toBe(code);
    expect(response.startTypeName).toBe(name);
  });

  it("reads unknown or missing codes as UNKNOWN, never as a real state or BOOT", async () => {
    const host = new FakeSystemHost([
      service("odd", 9, { startType: 7 }),
      service("none", null, { startType: null }),
    ]);
    const system = new System({ host });
    for (const name of ["odd", "none"]) {
      expect(await system.getService({ name })).toMatchObject({
        status: ServiceStatus.UNKNOWN,
        statusName: "UNKNOWN",
        startType: null,
        startTypeName: "UNKNOWN",
      });
    }
  });

  it("maps NoServiceFoundForGivenName to NOT_FOUND", async () => {
    const error = await rejection(
      new System({ host: new FakeSystemHost() }).getService({ name: "msisci" }),
    );
    expect(error).toBeInstanceOf(ServiceNotFoundError);
    expect(error.code).toBe("NOT_FOUND");
    expect(error).toMatchObject({ serviceName: "msisci" });
    expect(error.cause).toBeInstanceOf(CsiProxyError);
  });
});

describe("startService", () => {
  it("starts a stopped service and waits with the default 30 s and 200 ms poll", async () => {
    const host = new FakeSystemHost([service("svc", codes.stopped)]);
    expect(await new System({ host }).startService({ name: "svc" })).toEqual({});
    expect(host.calls).toEqual([
      { method: "startService", name: "svc", wait: { timeoutMs: 30_000, pollMs: 200 } },
    ]);
    expect(host.services.get("svc")?.status).toBe(codes.running);
  });

  it("succeeds at once on a running service (idempotent)", async () => {
    const host = new FakeSystemHost([service("svc", codes.running)]);
    const system = new System({ host });
    await system.startService({ name: "svc" });
    await system.startService({ name: "svc" });
    expect(host.log()).toEqual(["startService svc", "startService svc"]);
    expect(host.services.get("svc")?.status).toBe(codes.running);
  });

  it("waits out a pending start or continue", async () => {
    const host = new FakeSystemHost([
      service("a", codes.startPending),
      service("b", codes.continuePending),
    ]);
    const system = new System({ host });
    await system.startService({ name: "a" });
    await system.startService({ name: "b" });
    expect(host.services.get("a")?.status).toBe(codes.running);
    expect(host.services.get("b")?.status).toBe(codes.running);
  });

  it("passes the caller's timeoutMs to the host's wait", async () => {
    const host = new FakeSystemHost([service("svc", codes.stopped)]);
    await new System({ host }).startService({ name: "svc", timeoutMs: 5_000 });
    expect(host.calls[0]?.wait).toEqual({ timeoutMs: 5_000, pollMs: 200 });
  });

  it("fails with TIMEOUT when the start stays pending past the deadline", async () => {
    const host = new FakeSystemHost([service("svc", codes.stopped, { behaviour: "stuck" })]);
    const error = await rejection(
      new System({ host }).startService({ name: "svc", timeoutMs: 1_000 }),
    );
    expect(error).toBeInstanceOf(ServiceTimeoutError);
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toBe(
      'Service "svc" did not become RUNNING within 1000 ms; its status is still START_PENDING.',
    );
    expect(error).toMatchObject({
      expected: "RUNNING",
      lastStatus: "START_PENDING",
      timeoutMs: 1_000,
    });
  });

  it("refuses a disabled service with FAILED_PRECONDITION", async () => {
    const host = new FakeSystemHost([service("svc", codes.stopped, { startType: codes.disabled })]);
    const error = await rejection(new System({ host }).startService({ name: "svc" }));
    expect(error).toBeInstanceOf(ServiceStateError);
    expect(error.code).toBe("FAILED_PRECONDITION");
    expect(error.message).toMatch(/disabled/);
  });

  it("refuses a paused service with FAILED_PRECONDITION (starting does not resume)", async () => {
    const host = new FakeSystemHost([service("svc", codes.paused)]);
    const error = await rejection(new System({ host }).startService({ name: "svc" }));
    expect(error.code).toBe("FAILED_PRECONDITION");
    expect(error).toMatchObject({ status: "PAUSED" });
  });

  it("reports a service that stopped again after starting as COMMAND_FAILED", async () => {
    const host = new FakeSystemHost([service("svc", codes.stopped, { behaviour: "fails" })]);
    const error = await rejection(new System({ host }).startService({ name: "svc" }));
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.message).toMatch(/stopped again/);
  });

  it("maps a missing service to NOT_FOUND", async () => {
    const error = await rejection(
      new System({ host: new FakeSystemHost() }).startService({ name: "nope" }),
    );
    expect(error).toBeInstanceOf(ServiceNotFoundError);
  });

  it("keeps TIMEOUT when the PowerShell process itself was killed", async () => {
    const host = new FakeSystemHost([service("svc", codes.stopped)]);
    host.fail(
      "startService",
      new CsiProxyError("system.startService timed out after 40000 ms", { code: "TIMEOUT" }),
    );
    const error = await rejection(new System({ host }).startService({ name: "svc" }));
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toMatch(/^startService\(svc\) failed: /);
  });
});

describe("stopService", () => {
  it("stops a running service and succeeds at once on a stopped one", async () => {
    const host = new FakeSystemHost([service("svc", codes.running)]);
    const system = new System({ host });
    await system.stopService({ name: "svc" });
    await system.stopService({ name: "svc" });
    expect(host.log()).toEqual(["stopService svc", "stopService svc"]);
    expect(host.services.get("svc")?.status).toBe(codes.stopped);
  });

  it("fails with FAILED_PRECONDITION, stopping nothing, when dependents run and force is off", async () => {
    const host = chain();
    const error = await rejection(new System({ host }).stopService({ name: "A" }));
    expect(error).toBeInstanceOf(ServiceHasDependentsError);
    expect(error.code).toBe("FAILED_PRECONDITION");
    expect(error.message).toMatch(/force: true/);
    expect([...host.services.values()].map((s) => s.status)).toEqual([4, 4, 4]);
  });

  it("with force stops dependents deepest first, then the service (A → B → C gives C, B, A)", async () => {
    const host = chain();
    await new System({ host }).stopService({ name: "A", force: true });
    expect(host.log()).toEqual([
      "getDependencies A",
      "stopService C",
      "stopService B",
      "stopService A",
    ]);
    expect([...host.services.values()].map((s) => s.status)).toEqual([1, 1, 1]);
  });

  it("with force stops a shared dependent before every service it depends on", async () => {
    // D depends on B and C, both depend on A: D must go first, A last.
    const host = new FakeSystemHost([
      service("A", codes.running, { dependents: ["B", "C"] }),
      service("B", codes.running, { dependents: ["D"] }),
      service("C", codes.running, { dependents: ["D"] }),
      service("D", codes.running),
    ]);
    await new System({ host }).stopService({ name: "a", force: true });
    const stops = host.log().filter((entry) => entry.startsWith("stopService"));
    expect(stops).toEqual(["stopService D", "stopService B", "stopService C", "stopService a"]);
  });

  it("with force skips dependents that are already stopped", async () => {
    const host = new FakeSystemHost([
      service("A", codes.running, { dependents: ["B", "C"] }),
      service("B", codes.stopped),
      service("C", codes.running),
    ]);
    await new System({ host }).stopService({ name: "A", force: true });
    expect(host.log()).toEqual(["getDependencies A", "stopService C", "stopService A"]);
  });

  it("with force on a stopped service with stopped dependents does nothing more", async () => {
    const host = new FakeSystemHost([
      service("A", codes.stopped, { dependents: ["B"] }),
      service("B", codes.stopped),
    ]);
    await new System({ host }).stopService({ name: "A", force: true });
    expect(host.log()).toEqual(["getDependencies A"]);
  });

  it("with force treats a dependent deleted since the walk as stopped", async () => {
    const host = chain();
    host.hook = async (call) => {
      // C is uninstalled between the walk and its stop: the stop script finds no such service.
      if (call.method === "stopService" && call.name === "C") {
        host.services.delete("c");
        host.services.get("b")!.dependents = [];
      }
      await Promise.resolve();
    };
    await new System({ host }).stopService({ name: "A", force: true });
    expect(host.log()).toEqual([
      "getDependencies A",
      "stopService C",
      "stopService B",
      "stopService A",
    ]);
  });

  it("shares one deadline across the dependents and the service", async () => {
    const host = chain();
    let now = 1_000_000;
    vi.spyOn(Date, "now").mockImplementation(() => now);
    host.hook = async (call) => {
      if (call.method === "stopService") now += 400;
      await Promise.resolve();
    };
    await new System({ host }).stopService({ name: "A", force: true, timeoutMs: 2_000 });
    expect(host.calls.filter((c) => c.wait !== undefined).map((c) => c.wait?.timeoutMs)).toEqual([
      2_000, 1_600, 1_200,
    ]);
  });

  it("fails with TIMEOUT, naming the dependent, when the deadline passes before the service", async () => {
    const host = chain();
    let now = 1_000_000;
    vi.spyOn(Date, "now").mockImplementation(() => now);
    host.hook = async (call) => {
      if (call.method === "stopService") now += 1_500;
      await Promise.resolve();
    };
    const error = await rejection(
      new System({ host }).stopService({ name: "A", force: true, timeoutMs: 2_000 }),
    );
    expect(error).toBeInstanceOf(ServiceTimeoutError);
    expect(error.message).toBe(
      'Service "A" did not become STOPPED within 2000 ms; its status is still RUNNING.',
    );
    // C and B were stopped; A was only looked at, never asked to stop after the deadline.
    expect(host.log()).toEqual([
      "getDependencies A",
      "stopService C",
      "stopService B",
      "getService A",
    ]);
  });

  it("fails with TIMEOUT when a stop stays pending", async () => {
    const host = new FakeSystemHost([service("svc", codes.running, { behaviour: "stuck" })]);
    const error = await rejection(
      new System({ host }).stopService({ name: "svc", timeoutMs: 300 }),
    );
    expect(error.code).toBe("TIMEOUT");
    expect(error).toMatchObject({
      expected: "STOPPED",
      lastStatus: "STOP_PENDING",
      timeoutMs: 300,
    });
  });

  it("fails with TIMEOUT naming a stuck dependent and leaves the service running", async () => {
    const host = chain();
    host.services.get("c")!.behaviour = "stuck";
    const error = await rejection(new System({ host }).stopService({ name: "A", force: true }));
    expect(error).toMatchObject({ code: "TIMEOUT", serviceName: "C" });
    expect(host.services.get("a")?.status).toBe(codes.running);
  });

  it("maps a missing service to NOT_FOUND, with and without force", async () => {
    const system = new System({ host: new FakeSystemHost() });
    expect((await rejection(system.stopService({ name: "x" }))).code).toBe("NOT_FOUND");
    expect((await rejection(system.stopService({ name: "x", force: true }))).code).toBe(
      "NOT_FOUND",
    );
  });

  it("refuses a dependent whose name Get-Service would read as a wildcard", async () => {
    const host = new FakeSystemHost([
      service("A", codes.running, { dependents: ["odd[1]"] }),
      service("odd[1]", codes.running),
    ]);
    const error = await rejection(new System({ host }).stopService({ name: "A", force: true }));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(host.log()).toEqual(["getDependencies A"]);
  });
});

describe("construction", () => {
  it("takes a host or a shell, not both", () => {
    expect(() => new System({ host: new FakeSystemHost(), shell: new FakeShell() })).toThrow(
      /host or a shell/,
    );
  });

  it("runs on the given shell when no host is given", async () => {
    const shell = new FakeShell().answer("system.biosSerialNumber", { serialNumber: "abc " });
    expect(await new System({ shell }).getBiosSerialNumber()).toEqual({ serialNumber: "abc" });
    expect(shell.runs).toHaveLength(1);
  });
});
