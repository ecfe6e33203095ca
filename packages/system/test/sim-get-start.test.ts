import { describeWithPwsh } from "@csi-proxy/test-utils";
import { serviceStatusAt } from "@csi-proxy/winsim";
import { expect, it } from "vitest";
import {
  ServiceNotFoundError,
  ServiceStateError,
  ServiceStatus,
  ServiceTimeoutError,
  StartType,
} from "../src/index.js";
import { calledCommands, failure, testServices, useSimHost } from "./sim-helpers.js";

describeWithPwsh("getService on the simulator (session)", (pwsh) => {
  const host = useSimHost(pwsh, { system: { services: testServices } });

  it("reads a service's display name, status and start type", async () => {
    expect(await host.system.getService({ name: "msiscsi" })).toEqual({
      displayName: "Microsoft iSCSI Initiator Service",
      status: ServiceStatus.STOPPED,
      statusName: "STOPPED",
      startType: StartType.MANUAL,
      startTypeName: "MANUAL",
    });
    expect(await host.system.getService({ name: "Held" })).toMatchObject({ statusName: "PAUSED" });
    expect(await host.system.getService({ name: "Stopping" })).toMatchObject({
      statusName: "STOP_PENDING",
    });
  });

  it("maps NoServiceFoundForGivenName to NOT_FOUND", async () => {
    const error = await failure(host.system.getService({ name: "NoSuchService" }));
    expect(error).toBeInstanceOf(ServiceNotFoundError);
    expect(error.code).toBe("NOT_FOUND");
  });

  it("rejects wildcard and empty names with no simulated call", async () => {
    host.sim.clearCalls();
    for (const name of ["MS*", "", "a/b"]) {
      expect((await failure(host.system.getService({ name }))).code).toBe("INVALID_ARGUMENT");
    }
    expect(host.sim.calls()).toEqual([]);
  });

  it("maps an injected Get-Service failure to COMMAND_FAILED", async () => {
    host.sim.fault({
      command: "Get-Service",
      action: "error",
      error: {
        message: "Access is denied.",
        errorId: "AccessDenied",
        category: "PermissionDenied",
      },
    });
    const error = await failure(host.system.getService({ name: "MSiSCSI" }));
    expect(error.code).toBe("COMMAND_FAILED");
    expect(host.sim.calls().at(-1)?.outcome).toBe("fault");
  });
});

describeWithPwsh("startService on the simulator (session)", (pwsh) => {
  const host = useSimHost(pwsh, { system: { services: testServices } });

  it("starts a stopped service and waits out its StartPending", async () => {
    host.sim.clearCalls();
    await host.system.startService({ name: "MSiSCSI" });
    expect(await host.system.getService({ name: "MSiSCSI" })).toMatchObject({
      statusName: "RUNNING",
    });
    const started = host.sim.calls().filter((c) => c.command === "ServiceController.Start");
    expect(started).toHaveLength(1);
    // The wait polled Get-Service while the start was pending (300 ms at 200 ms polls).
    expect(
      calledCommands(host.sim).filter((c) => c === "Get-Service MSiSCSI").length,
    ).toBeGreaterThan(2);
  });

  it("is idempotent: starting a running service succeeds without a start request", async () => {
    host.sim.clearCalls();
    await host.system.startService({ name: "MSiSCSI" });
    expect(calledCommands(host.sim)).toEqual(["Get-Service MSiSCSI"]);
  });

  it("maps a missing service to NOT_FOUND", async () => {
    expect(await failure(host.system.startService({ name: "Ghost" }))).toBeInstanceOf(
      ServiceNotFoundError,
    );
  });

  it("rejects a bad timeout with no simulated call", async () => {
    host.sim.clearCalls();
    const error = await failure(host.system.startService({ name: "MSiSCSI", timeoutMs: 0 }));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(host.sim.calls()).toEqual([]);
  });

  it("fails a start stuck in StartPending with TIMEOUT within the bound", async () => {
    const began = Date.now();
    const error = await failure(host.system.startService({ name: "StuckStart", timeoutMs: 1000 }));
    const took = Date.now() - began;
    expect(error).toBeInstanceOf(ServiceTimeoutError);
    expect(error).toMatchObject({
      code: "TIMEOUT",
      expected: "RUNNING",
      lastStatus: "START_PENDING",
    });
    expect(took).toBeGreaterThanOrEqual(1000);
  });

  it("reports the state a start request led to even when the first look outlasts the timeout", async () => {
    // A loaded host: the first Get-Service takes longer than the whole budget.
    host.sim.fault({
      command: "Get-Service",
      match: { Name: "SlowToStart" },
      action: "delay",
      delayMs: 1500,
    });
    const error = await failure(host.system.startService({ name: "SlowToStart", timeoutMs: 300 }));
    expect(error).toMatchObject({ code: "TIMEOUT", lastStatus: "START_PENDING" });
  });

  it("refuses a disabled service with FAILED_PRECONDITION and never asks to start it", async () => {
    host.sim.clearCalls();
    const error = await failure(host.system.startService({ name: "Off" }));
    expect(error).toBeInstanceOf(ServiceStateError);
    expect(error.code).toBe("FAILED_PRECONDITION");
    expect(host.sim.calls().map((c) => c.command)).not.toContain("ServiceController.Start");
  });

  it("refuses a paused service with FAILED_PRECONDITION", async () => {
    expect((await failure(host.system.startService({ name: "Held" }))).code).toBe(
      "FAILED_PRECONDITION",
    );
  });

  it("reports a service that stops again after its start as COMMAND_FAILED", async () => {
    const error = await failure(host.system.startService({ name: "Broken" }));
    expect(error).toBeInstanceOf(ServiceStateError);
    expect(error.code).toBe("COMMAND_FAILED");
    expect(
      serviceStatusAt(host.sim.state().system!.services.find((s) => s.name === "Broken")!),
    ).toBe(1);
  });

  it("maps an injected start failure (the SCM's 1053) to COMMAND_FAILED", async () => {
    host.sim.fault({
      command: "ServiceController.Start",
      match: { Name: "Side" },
      action: "error",
      error: {
        message: "The service did not respond to the start or control request in a timely fashion.",
        statusCode: 1053,
      },
    });
    const error = await failure(host.system.startService({ name: "Side" }));
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.message).toContain("Cannot start service Side on computer '.'.");
    expect(host.sim.calls().at(-1)?.outcome).toBe("fault");
  });
});
