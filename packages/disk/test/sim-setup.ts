import { createPowerShell, isCsiProxyError, type ExecMode, type PowerShell } from "@csi-proxy/exec";
import { buildScenario, Simulator, type CallLogEntry, type ScenarioSpec } from "@csi-proxy/winsim";
import { afterAll, beforeAll } from "vitest";
import { Disk } from "../src/index.js";

export const GiB = 1024 ** 3;

/** A simulated host with one shell and one Disk on it, reset per test with {@link SimHost.reset}. */
export interface SimHost {
  readonly sim: Simulator;
  readonly shell: PowerShell;
  readonly disk: Disk;
  /** Replaces the host's disks, partitions and volumes with the scenario's; clears calls and faults. */
  reset(spec: ScenarioSpec): void;
  /** The cmdlets called since the last reset, as "Command" strings. */
  commands(): string[];
  /** The call log since the last reset. */
  calls(): CallLogEntry[];
}

/** Creates the host once for a describe block (a session process costs about a second). */
export function useSimHost(pwsh: string, mode: ExecMode, poolSize = 1): () => SimHost {
  let host: SimHost | undefined;
  beforeAll(async () => {
    const sim = await Simulator.create({ systemDisk: true });
    const shell = createPowerShell(sim.shellOptions({ executable: pwsh, mode, poolSize }));
    host = {
      sim,
      shell,
      disk: new Disk({ shell }),
      reset(spec) {
        const built = buildScenario(spec, sim.root).state;
        sim.update((state) => {
          state.disks = built.disks;
          state.partitions = built.partitions;
          state.volumes = built.volumes;
        });
        sim.clearCalls();
        sim.clearFaults();
      },
      commands: () => sim.calls().map((c) => c.command),
      calls: () => sim.calls(),
    };
  });
  afterAll(async () => {
    await host?.shell.close();
    await host?.sim.dispose();
  });
  return () => {
    if (host === undefined) throw new Error("the simulated host is not ready");
    return host;
  };
}

/** The error a call fails with (a CsiProxyError, or the test fails). */
export async function failure(
  call: Promise<unknown>,
): Promise<Error & { code: string; cause?: unknown }> {
  try {
    await call;
  } catch (error) {
    if (isCsiProxyError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** The FullyQualifiedErrorId of a failure's PowerShellError cause. */
export function causeId(error: { cause?: unknown }): string | undefined {
  return (error.cause as { record?: { fullyQualifiedErrorId: string } } | undefined)?.record
    ?.fullyQualifiedErrorId;
}
