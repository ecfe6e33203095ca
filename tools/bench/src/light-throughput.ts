// Pool scaling with CPU-light calls (issue #18 item 3): batches of concurrent calls on warm pools
// of 1, 2 and 4, for a call that waits as a CIM query does and for the trivial script.
import { createPowerShell, ps, type Script } from "@csi-proxy/exec";
import { measureCalls } from "./measure.js";
import { trivial, warmPool } from "./overhead.js";
import type { ThroughputRow } from "./throughput.js";

/** A scaling row: which call, and how many cores its CPU kept busy. */
export interface LightThroughputRow extends ThroughputRow {
  readonly call: string;
  /** Node and PowerShell CPU over the wall time of the same batches: cores kept busy. */
  readonly coresBusy: number;
}

/** How long the waiting call waits, in ms. */
export const waitMs = 5;

const waiting = ps("bench.wait")`param([int]$Ms) Start-Sleep -Milliseconds $Ms`;

/** The calls measured, with the batch each sample issues at once. */
export const lightCalls: readonly {
  name: string;
  script: Script;
  params: Record<string, string | number>;
  batch: number;
}[] = [
  {
    name: `waits ${waitMs} ms (Start-Sleep), as a CIM query waits on its provider`,
    script: waiting,
    params: { Ms: waitMs },
    batch: 100,
  },
  { name: "trivial script", script: trivial, params: { Name: "x" }, batch: 1000 },
];

/** Each sample is one batch issued at once; calls/s come from the median batch. */
export async function measureLightThroughput(pwsh: string): Promise<LightThroughputRow[]> {
  const rows: LightThroughputRow[] = [];
  for (const { name, script, params, batch } of lightCalls) {
    for (const poolSize of [1, 2, 4]) {
      const shell = createPowerShell({ executable: pwsh, mode: "session", poolSize });
      try {
        await warmPool(shell, poolSize);
        let batches = 0;
        const started = performance.now();
        const row = await measureCalls(
          `${name}, pool ${poolSize}`,
          () => {
            batches += 1;
            return Promise.all(Array.from({ length: batch }, () => shell.run(script, params)));
          },
          { timeMs: 0, iterations: 7, warmupIterations: 1 },
        );
        const seconds = (performance.now() - started) / 1000;
        const cpu = { node: row.cpu.node / batch, children: row.cpu.children / batch };
        rows.push({
          ...row,
          cpu,
          poolSize,
          callsPerSecond: (batch * 1000) / row.median,
          call: name,
          // CPU and wall time of the same batches (warmup included), so tinybench's own
          // bookkeeping between batches counts as idle.
          coresBusy: ((cpu.node + cpu.children) * batch * batches) / seconds,
        });
      } finally {
        await shell.close();
      }
    }
  }
  return rows;
}
