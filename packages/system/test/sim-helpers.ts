import { createPowerShell, type ExecMode, type PowerShell } from "@csi-proxy/exec";
import { Simulator, type ScenarioSpec, type ServiceSpec } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect } from "vitest";
import { System } from "../src/index.js";

/** A simulated host, a PowerShell loaded with it and a System on that PowerShell. */
export interface SimHost {
  sim: Simulator;
  shell: PowerShell;
  system: System;
}

export async function startSimulator(
  pwsh: string,
  spec: ScenarioSpec,
  mode: ExecMode = "session",
): Promise<SimHost> {
  const sim = await Simulator.create(spec);
  const shell = createPowerShell(sim.shellOptions({ executable: pwsh, mode, poolSize: 2 }));
  return { sim, shell, system: new System({ shell }) };
}

/** One host per describe block (a session pool), closed after it. */
export function useSimHost(pwsh: string, spec: ScenarioSpec): SimHost {
  const host = {} as SimHost;
  beforeAll(async () => {
    Object.assign(host, await startSimulator(pwsh, spec));
  });
  afterAll(async () => {
    await host.shell.close();
    await host.sim.dispose();
  });
  return host;
}

/** The error a call failed with (fails the test when it succeeded). */
export async function failure(call: Promise<unknown>): Promise<Error & { code?: string }> {
  const error: unknown = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error & { code?: string };
}

/** Services for the tests: a chain Base ← Mid ← Top, and one of each awkward state. */
export const testServices: ServiceSpec[] = [
  { name: "MSiSCSI", displayName: "Microsoft iSCSI Initiator Service", startDelayMs: 300 },
  { name: "Base", status: "Running", startType: "Automatic", stopDelayMs: 100 },
  { name: "Mid", status: "Running", dependsOn: ["Base"], stopDelayMs: 100 },
  { name: "Top", status: "Running", dependsOn: ["Mid"], stopDelayMs: 100 },
  { name: "Side", status: "Stopped", dependsOn: ["Base"] },
  { name: "StuckStart", startDelayMs: 1e12 },
  { name: "SlowToStart", startDelayMs: 1e12 },
  { name: "StuckStop", status: "Running", stopDelayMs: 1e12 },
  { name: "SlowToAsk", status: "Running", stopDelayMs: 1e12 },
  { name: "Stopping", status: "StopPending" },
  { name: "Off", displayName: "Turned Off", startType: "Disabled" },
  { name: "Held", status: "Paused" },
  { name: "Broken", failsToStart: true, startDelayMs: 100 },
];

/** A logged parameter value (a string or an array of them) as text. */
export function logged(value: unknown): string {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(",");
}

/** The commands the simulator logged, as "Command Name" strings. */
export function calledCommands(sim: Simulator): string[] {
  return sim.calls().map((c) => {
    const name = c.parameters.Name ?? c.parameters.ClassName;
    return name === undefined ? c.command : `${c.command} ${logged(name)}`;
  });
}
