import { describeWithPwsh } from "@csi-proxy/test-utils";
import { serviceStatusAt, type Simulator } from "@csi-proxy/winsim";
import { expect, it } from "vitest";
import {
  ServiceHasDependentsError,
  ServiceNotFoundError,
  ServiceTimeoutError,
} from "../src/index.js";
import { failure, logged, testServices, useSimHost } from "./sim-helpers.js";

function statuses(sim: Simulator, names: string[]): number[] {
  const services = sim.state().system!.services;
  return names.map((n) => serviceStatusAt(services.find((s) => s.name === n)!));
}

/** The services Stop-Service was asked to stop, in call order. */
function stopRequests(sim: Simulator): string[] {
  return sim
    .calls()
    .filter((c) => c.command === "Stop-Service")
    .map((c) => logged(c.parameters.Name));
}

describeWithPwsh("stopService on the simulator (session)", (pwsh) => {
  const host = useSimHost(pwsh, { system: { services: testServices } });

  it("without force, running dependents give FAILED_PRECONDITION and nothing stops", async () => {
    const error = await failure(host.system.stopService({ name: "Base" }));
    expect(error).toBeInstanceOf(ServiceHasDependentsError);
    expect(error.code).toBe("FAILED_PRECONDITION");
    const cause = error.cause as { record?: { fullyQualifiedErrorId?: string } };
    expect(cause.record?.fullyQualifiedErrorId).toBe(
      "ServiceHasDependentServices,Microsoft.PowerShell.Commands.StopServiceCommand",
    );
    expect(statuses(host.sim, ["Base", "Mid", "Top"])).toEqual([4, 4, 4]);
  });

  it("with force, stops the running dependents deepest first, then the service", async () => {
    host.sim.clearCalls();
    await host.system.stopService({ name: "Base", force: true });
    expect(stopRequests(host.sim)).toEqual(["Top", "Mid", "Base"]);
    expect(statuses(host.sim, ["Base", "Mid", "Top", "Side"])).toEqual([1, 1, 1, 1]);
    // Each stop began after the one before had finished (100 ms StopPending each).
    const stops = host.sim.calls().filter((c) => c.command === "Stop-Service");
    const services = host.sim.state().system!.services;
    const stoppedAt = (n: string) => services.find((s) => s.name === n)!.changedAt!;
    expect(stops[1]!.start).toBeGreaterThanOrEqual(stoppedAt("Top"));
    expect(stops[2]!.start).toBeGreaterThanOrEqual(stoppedAt("Mid"));
  });

  it("is idempotent: stopping a stopped service succeeds without a stop request", async () => {
    host.sim.clearCalls();
    await host.system.stopService({ name: "Base" });
    await host.system.stopService({ name: "Base", force: true });
    expect(stopRequests(host.sim)).toEqual([]);
  });

  it("maps a missing service to NOT_FOUND", async () => {
    expect(await failure(host.system.stopService({ name: "Ghost" }))).toBeInstanceOf(
      ServiceNotFoundError,
    );
    expect(await failure(host.system.stopService({ name: "Ghost", force: true }))).toBeInstanceOf(
      ServiceNotFoundError,
    );
  });

  it("rejects a non-boolean force with no simulated call", async () => {
    host.sim.clearCalls();
    const error = await failure(host.system.stopService({ name: "Base", force: "yes" as never }));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(host.sim.calls()).toEqual([]);
  });

  it("fails a stop stuck in StopPending with TIMEOUT within the bound", async () => {
    const error = await failure(host.system.stopService({ name: "StuckStop", timeoutMs: 800 }));
    expect(error).toBeInstanceOf(ServiceTimeoutError);
    expect(error).toMatchObject({
      code: "TIMEOUT",
      expected: "STOPPED",
      lastStatus: "STOP_PENDING",
    });
    const stuck = await failure(host.system.stopService({ name: "Stopping", timeoutMs: 500 }));
    expect(stuck.code).toBe("TIMEOUT");
  });

  it("reports the state a stop request led to even when the request outlasts the timeout", async () => {
    // A loaded host: Stop-Service itself takes longer than the whole budget.
    host.sim.fault({
      command: "Stop-Service",
      match: { Name: "SlowToAsk" },
      action: "delay",
      delayMs: 1500,
    });
    const error = await failure(host.system.stopService({ name: "SlowToAsk", timeoutMs: 300 }));
    expect(error).toMatchObject({ code: "TIMEOUT", lastStatus: "STOP_PENDING" });
  });

  it("maps an injected Stop-Service failure to COMMAND_FAILED", async () => {
    host.sim.update((s) => {
      s.system!.services.find((x) => x.name === "Side")!.status = 4;
    });
    host.sim.fault({
      command: "Stop-Service",
      match: { Name: "Side" },
      action: "error",
      error: {
        message: "Service 'Side (Side)' cannot be stopped.",
        errorId: "CouldNotStopService",
        category: "CloseError",
      },
    });
    const error = await failure(host.system.stopService({ name: "Side" }));
    expect(error.code).toBe("COMMAND_FAILED");
    expect(statuses(host.sim, ["Side"])).toEqual([4]);
  });
});
