// The demo's full CSI node flow (stage, publish, unpublish, unstage) on a fresh simulated host.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { join } from "node:path";
import { runLifecycle } from "@csi-proxy/demo/lifecycle";
import { createNodeGroups } from "@csi-proxy/demo/node";
import { kubeletPaths } from "@csi-proxy/demo/paths";
import { simulatedArray, simulatedShareLinks } from "@csi-proxy/demo/sim-array";
import { StepRunner } from "@csi-proxy/demo/steps";
import { demoScenario } from "@csi-proxy/demo/world";
import { createPowerShell, execChannels, type ExecMode } from "@csi-proxy/exec";
import { Simulator } from "@csi-proxy/winsim";
import { measurePrepared, type Budget, type Prepared, type Row } from "./measure.js";
import { warmPool } from "./overhead.js";

/** The demo's pool size. */
const poolSize = 2;

/** A flow row plus the number of PowerShell calls one flow makes. */
export interface FlowRow extends Row {
  readonly callsPerFlow: number;
}

const budgets: Record<ExecMode, Budget> = {
  // A spawn flow is ~50 processes; a time budget keeps the whole `pnpm bench` bounded.
  spawn: { timeMs: 60_000, iterations: 1, warmupIterations: 0 },
  session: { timeMs: 10_000, iterations: 3, warmupIterations: 1 },
};

/** Calls made by the last flow that ran, counted on the exec core's diagnostics channel. */
let lastFlowCalls = 0;

async function prepareFlow(pwsh: string, mode: ExecMode): Promise<Prepared> {
  const sim = await Simulator.create(demoScenario());
  const shell = createPowerShell(sim.shellOptions({ executable: pwsh, mode, poolSize }));
  if (mode === "session") await warmPool(shell, poolSize);
  const paths = kubeletPaths(join(sim.root, "var", "lib", "kubelet"), "posix");
  const groups = createNodeGroups(shell, {
    pathStyle: "posix",
    kubeletRoot: paths.root,
    smbLinks: simulatedShareLinks(sim),
  });
  return {
    async run() {
      const runner = new StepRunner(true, false);
      let calls = 0;
      const count = (): void => {
        calls += 1;
      };
      subscribe(execChannels.start, count);
      try {
        await runLifecycle(groups, paths, runner, simulatedArray(sim));
      } finally {
        unsubscribe(execChannels.start, count);
      }
      lastFlowCalls = calls;
      const failed = runner.results.find((r) => !r.ok);
      if (failed !== undefined)
        throw new Error(`flow step failed: ${failed.step}: ${failed.detail}`);
    },
    async dispose() {
      await shell.close();
      await sim.dispose();
    },
  };
}

/** The full flow in spawn and session mode; only the flow is timed, not host or pool setup. */
export async function measureFlow(pwsh: string): Promise<FlowRow[]> {
  const rows: FlowRow[] = [];
  for (const mode of ["spawn", "session"] as const) {
    const row = await measurePrepared(
      `stage/publish/unstage flow, ${mode}`,
      () => prepareFlow(pwsh, mode),
      budgets[mode],
    );
    rows.push({ ...row, callsPerFlow: lastFlowCalls });
  }
  return rows;
}
