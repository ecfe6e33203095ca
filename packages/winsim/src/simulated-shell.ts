import { createPowerShell, type PowerShell, type PowerShellOptions } from "@csi-proxy/exec";
import { findPwsh, type FindPwshOptions } from "./find-pwsh.js";
import type { Simulator } from "./simulator.js";

/** Options for {@link createSimulatedPowerShell}. */
export interface SimulatedPowerShellOptions extends Omit<PowerShellOptions, "executable"> {
  /** How to find pwsh 7 (see {@link findPwsh}); `pwsh.path` picks one explicitly. */
  readonly pwsh?: FindPwshOptions;
}

/**
 * A `PowerShell` (from `@csi-proxy/exec`) whose every call runs against `sim`: pwsh 7 found by
 * {@link findPwsh}, the simulator's module imported, its state folder bound. Hand it to the
 * groups (`createDisk({ shell })`, ...) exactly as a driver hands them a real host's shell.
 * Close it (`await shell.close()`) before disposing the simulator.
 *
 * @throws {@link PwshNotFoundError} when no PowerShell 7 can be found or provisioned.
 *
 * @example
 * ```ts
 * import { createSimulatedPowerShell, scenarios, Simulator } from "@csi-proxy/winsim";
 *
 * const sim = await Simulator.create(scenarios.demo());
 * const shell = await createSimulatedPowerShell(sim, { poolSize: 1 });
 * await shell.close();
 * await sim.dispose();
 * ```
 */
export async function createSimulatedPowerShell(
  sim: Simulator,
  options: SimulatedPowerShellOptions = {},
): Promise<PowerShell> {
  const { pwsh, ...shellOptions } = options;
  const executable = await findPwsh(pwsh);
  return createPowerShell(sim.shellOptions({ ...shellOptions, executable }));
}
