// Throughput of 100 concurrent read calls (getVolumeStats) on warm session pools of 1, 2 and 4.
import { Volume } from "@csi-proxy/volume";
import { measureCalls, type Row } from "./measure.js";
import { warmPool } from "./overhead.js";
import type { ReadHost } from "./reads.js";

/** Concurrent calls per batch. */
export const batchSize = 100;

/** A batch's row plus its throughput; `cpu` is per call, not per batch. */
export interface ThroughputRow extends Row {
  readonly poolSize: number;
  readonly callsPerSecond: number;
}

/** Each sample is one batch of 100 calls issued at once; calls/s come from the median batch. */
export async function measureThroughput(host: ReadHost): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  for (const poolSize of [1, 2, 4]) {
    const shell = host.shell("session", poolSize);
    await warmPool(shell, poolSize);
    const volume = new Volume({ shell, pathStyle: "posix" });
    const { volumeId } = host;
    try {
      const row = await measureCalls(
        `${batchSize} concurrent getVolumeStats, pool ${poolSize}`,
        () =>
          Promise.all(Array.from({ length: batchSize }, () => volume.getVolumeStats({ volumeId }))),
        { timeMs: 0, iterations: 4, warmupIterations: 1 },
      );
      rows.push({
        ...row,
        cpu: { node: row.cpu.node / batchSize, children: row.cpu.children / batchSize },
        poolSize,
        callsPerSecond: (batchSize * 1000) / row.median,
      });
    } finally {
      await shell.close();
    }
  }
  return rows;
}
