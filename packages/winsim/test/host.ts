import { createPowerShell, type PowerShell, type PowerShellOptions } from "@csi-proxy/exec";
import { PowerShellError } from "@csi-proxy/exec";
import { afterAll, beforeAll, expect } from "vitest";
import { Simulator, type ScenarioSpec } from "../src/index.js";

export interface Host {
  sim: Simulator;
  shell: PowerShell;
}

/** One simulated host and one session shell per describe block, so the suite stays fast. */
export function useHost(pwsh: string, spec: ScenarioSpec, options: PowerShellOptions = {}): Host {
  const host = {} as Host;
  beforeAll(async () => {
    host.sim = await Simulator.create(spec);
    host.shell = createPowerShell(host.sim.shellOptions({ executable: pwsh, ...options }));
  });
  afterAll(async () => {
    await host.shell.close();
    await host.sim.dispose();
  });
  return host;
}

/** The PowerShellError a call failed with (fails the test when it succeeded). */
export async function failure(call: Promise<unknown>): Promise<PowerShellError> {
  const error: unknown = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PowerShellError);
  return error as PowerShellError;
}
