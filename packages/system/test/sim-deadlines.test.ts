import { describeWithPwsh } from "@csi-proxy/test-utils";
import { serviceStatusAt, type ServiceSpec, type Simulator } from "@csi-proxy/winsim";
import { expect, it } from "vitest";
import type { PowerShell } from "@csi-proxy/exec";
import { serviceReportMarginMs, ServiceTimeoutError, System } from "../src/index.js";
import { failure, useSimHost } from "./sim-helpers.js";

// Cancellations on real pwsh: a call cut while a script runs ends ABORTED (the process is
// replaced), the shell serves the next call, and a retry ends where an uncancelled call does.

const services: ServiceSpec[] = [
  { name: "Base", status: "Running", stopDelayMs: 100 },
  { name: "Mid", status: "Running", dependsOn: ["Base"], stopDelayMs: 100 },
  { name: "Top", status: "Running", dependsOn: ["Mid"], stopDelayMs: 100 },
  { name: "Side", status: "Stopped", dependsOn: ["Base"] },
  { name: "Other", status: "Running" },
  // Long enough that the cancelled call is still waiting when it is aborted.
  { name: "Slow", startDelayMs: 5_000 },
  { name: "Stuck", startDelayMs: 1e12 },
];

/** Far past any deadline here: the hung call can only end by being cancelled. */
const hangMs = 600_000;

function statuses(sim: Simulator): Record<string, number> {
  return Object.fromEntries(sim.state().system!.services.map((s) => [s.name, serviceStatusAt(s)]));
}

/** Resolves once `ready()` holds, or once `call` settles (then the test's assertions fail). */
async function until(ready: () => boolean, call: Promise<unknown>): Promise<void> {
  const progress = { settled: false };
  void call.then(
    () => (progress.settled = true),
    () => (progress.settled = true),
  );
  while (!ready() && !progress.settled) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** Whether every armed fault was met (a met delay is at 0, even when its process was killed). */
const faultsMet = (sim: Simulator) => () => sim.faults().every((f) => f.times === 0);

describeWithPwsh("cancelling System calls on the simulator (session)", (pwsh) => {
  const host = useSimHost(pwsh, { system: { services } });

  it("stopService with force, aborted while a dependent stops, converges on retry", async () => {
    const before = statuses(host.sim);
    host.sim.fault({
      command: "Stop-Service",
      match: { Name: "Mid" },
      action: "delay",
      delayMs: hangMs,
    });
    const controller = new AbortController();
    const call = host.system.stopService(
      { name: "Base", force: true },
      { signal: controller.signal },
    );
    await until(faultsMet(host.sim), call);
    controller.abort();
    expect((await failure(call)).code).toBe("ABORTED");
    // Top was stopped before the cut; Mid's stop never reached the service.
    expect(statuses(host.sim)).toMatchObject({ Top: 1, Mid: 4, Base: 4 });

    host.sim.clearFaults();
    expect(await host.system.getService({ name: "Other" })).toMatchObject({
      statusName: "RUNNING",
    });
    await host.system.stopService({ name: "Base", force: true });
    // What an uncancelled forced stop leaves: the chain stopped, everything else untouched.
    expect(statuses(host.sim)).toEqual({ ...before, Base: 1, Mid: 1, Top: 1 });
  });

  it("startService, aborted after the start was asked for, is safe to retry", async () => {
    const controller = new AbortController();
    const call = host.system.startService({ name: "Slow" }, { signal: controller.signal });
    const asked = () =>
      host.sim
        .calls()
        .some((c) => c.command === "ServiceController.Start" && c.parameters.Name === "Slow");
    await until(asked, call);
    // The script's next look hangs, so the abort lands while it waits.
    host.sim.fault({
      command: "Get-Service",
      match: { Name: "Slow" },
      action: "delay",
      delayMs: hangMs,
    });
    await until(faultsMet(host.sim), call);
    controller.abort();
    expect((await failure(call)).code).toBe("ABORTED");
    expect(statuses(host.sim).Slow).toBe(2);

    host.sim.clearFaults();
    host.sim.clearCalls();
    await host.system.startService({ name: "Slow" });
    expect(statuses(host.sim).Slow).toBe(4);
    // The retry waited for the pending start and did not ask again.
    expect(host.sim.calls().filter((c) => c.command === "ServiceController.Start")).toEqual([]);
  });

  it("a call's deadline ends the script's wait first, so the status is reported", async () => {
    // Records what the start script was asked to wait, on the same simulated host.
    const waits: unknown[] = [];
    const shell: PowerShell = {
      mode: host.shell.mode,
      run: (script, params, options) => {
        waits.push(params?.TimeoutMs);
        return host.shell.run(script, params, options);
      },
      warmUp: (options) => host.shell.warmUp(options),
      close: () => Promise.resolve(),
    };
    const system = new System({ shell });
    const error = await failure(system.startService({ name: "Stuck" }, { timeoutMs: 8_000 }));
    expect(error).toBeInstanceOf(ServiceTimeoutError);
    expect(error).toMatchObject({ code: "TIMEOUT", lastStatus: "START_PENDING" });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeLessThanOrEqual(8_000 - serviceReportMarginMs);
  });
});
