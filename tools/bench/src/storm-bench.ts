// The storm's bench row: the same 32 NodeStage sequences serially and all at once, each on a fresh
// node, with what the host was asked (simulated cmdlet calls per RPC: where the time goes).
import { Simulator } from "@csi-proxy/winsim";
import { restageStorm, startStormNode } from "./storm.js";

/** One way of running the storm. */
export interface StormRow {
  readonly mode: "serial" | "concurrent";
  readonly sequences: number;
  readonly wallMs: number;
  /** RPCs the drivers sent. */
  readonly rpcs: number;
  /** Cmdlet calls the host saw, and the most frequent ones. */
  readonly cmdlets: number;
  readonly topCmdlets: readonly (readonly [string, number])[];
}

async function runOnce(pwsh: string, concurrent: boolean): Promise<StormRow> {
  const node = await startStormNode(pwsh);
  try {
    const sim = await Simulator.open(node.bin.simulator.dir);
    sim.clearCalls();
    const before = node.sent();
    const run = await restageStorm(node, { concurrent });
    const counts = new Map<string, number>();
    const calls = sim.calls();
    for (const call of calls) counts.set(call.command, (counts.get(call.command) ?? 0) + 1);
    return {
      mode: concurrent ? "concurrent" : "serial",
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

/** The storm serially, then concurrently (2 × 16 volumes each). */
export async function measureStorm(pwsh: string): Promise<readonly StormRow[]> {
  const serial = await runOnce(pwsh, false);
  const concurrent = await runOnce(pwsh, true);
  return [serial, concurrent];
}
