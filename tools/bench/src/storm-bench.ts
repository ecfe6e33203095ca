// The storm's bench rows: the same 32 NodeStage sequences serially and all at once, each on a
// fresh node, through the server and on the library directly, on the simulator as it is and at a
// simulated CIM round trip per cmdlet, with what the host was asked (simulated cmdlet calls per
// RPC: where the time goes).
import { rmSync } from "node:fs";
import { join } from "node:path";
import { defaultMaxFactAgeMs } from "@csi-proxy/server";
import { Simulator } from "@csi-proxy/winsim";
import { restageStorm, startStormNode, type StormHost } from "./storm.js";
import { startLibraryStormNode } from "./storm-library.js";

/**
 * The simulated CIM round trip of the latency rows, in ms: one Storage/iSCSI query on a node
 * (docs/design/winsim.md, "Simulated CIM latency", from kubernetes-csi/csi-proxy#360).
 */
export const simulatedCimLatencyMs = 50;

/** One way of running the storm. */
export interface StormRow {
  readonly mode: "serial" | "concurrent";
  /** Through csi-proxy-server, or the same RPCs as library calls. */
  readonly via: "server" | "library";
  /** The simulated CIM round trip per cmdlet (0: the simulator as it is). */
  readonly cimLatencyMs: number;
  readonly sequences: number;
  readonly wallMs: number;
  /** RPCs the drivers sent. */
  readonly rpcs: number;
  /** Cmdlet calls the host saw, and the most frequent ones. */
  readonly cmdlets: number;
  readonly topCmdlets: readonly (readonly [string, number])[];
}

/**
 * Runs the storm once all at once at no latency, untimed, then puts the node back as it was: every
 * pool process has then run every cmdlet of the storm. The simulator's cmdlets are PowerShell
 * functions a process compiles on first use, about 8 s of CPU per process; Windows' are compiled
 * CIM cmdlets. Cold, a run at once starts four processes where one after another uses one, and
 * measures those compilations, not the storm.
 */
async function warm(node: StormHost, sim: Simulator, cimLatencyMs: number): Promise<void> {
  const initial = sim.state();
  sim.setCimLatency(0);
  await restageStorm(node, { concurrent: true });
  sim.update((state) => {
    for (const key of Object.keys(state)) Reflect.deleteProperty(state, key);
    Object.assign(state, structuredClone(initial));
  });
  rmSync(join(node.simulator.root, "var", "lib", "kubelet", "plugins"), {
    recursive: true,
    force: true,
  });
  sim.setCimLatency(cimLatencyMs);
  // Changed behind the server's back: its ownership facts of the warm run are past use after this.
  await new Promise((resolve) => setTimeout(resolve, defaultMaxFactAgeMs + 100));
}

async function runOnce(
  node: StormHost,
  via: StormRow["via"],
  concurrent: boolean,
  cimLatencyMs: number,
): Promise<StormRow> {
  try {
    const sim = await Simulator.open(node.simulator.dir);
    await warm(node, sim, cimLatencyMs);
    sim.clearCalls();
    const before = node.sent();
    const run = await restageStorm(node, { concurrent });
    const counts = new Map<string, number>();
    const calls = sim.calls();
    for (const call of calls) counts.set(call.command, (counts.get(call.command) ?? 0) + 1);
    return {
      mode: concurrent ? "concurrent" : "serial",
      via,
      cimLatencyMs,
      sequences: run.staged.length,
      wallMs: run.wallMs,
      rpcs: node.sent() - before,
      cmdlets: calls.length,
      topCmdlets: [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3),
    };
  } finally {
    await node.close();
  }
}

/**
 * The storm (2 × 16 volumes) serially, then concurrently: through the server and on the library,
 * on the simulator as it is and at {@link simulatedCimLatencyMs} per cmdlet, each on a fresh node
 * whose pool is warmed by one untimed run first.
 */
export async function measureStorm(
  pwsh: string,
  latencies: readonly number[] = [0, simulatedCimLatencyMs],
): Promise<readonly StormRow[]> {
  const rows: StormRow[] = [];
  for (const cimLatencyMs of latencies) {
    for (const via of ["server", "library"] as const) {
      for (const concurrent of [false, true]) {
        const node =
          via === "server"
            ? await startStormNode(pwsh, undefined, cimLatencyMs)
            : await startLibraryStormNode(pwsh, undefined, cimLatencyMs);
        rows.push(await runOnce(node, via, concurrent, cimLatencyMs));
      }
    }
  }
  return rows;
}
