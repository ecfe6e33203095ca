// One benchmarked operation: latency samples from tinybench, CPU seconds per operation from /proc.
import { Bench, type FnReturnedObject } from "tinybench";
import { cpuBetween, sampleCpu, type CpuSample } from "./cpu.js";
import { summarise } from "./stats.js";

/** A measured operation: latency in milliseconds, CPU in seconds per operation. */
export interface Row {
  readonly name: string;
  readonly median: number;
  readonly p95: number;
  readonly samples: number;
  readonly cpu: CpuSample;
}

/** How long tinybench keeps measuring: at least `iterations` runs and `timeMs` of them. */
export interface Budget {
  readonly timeMs: number;
  readonly iterations: number;
  readonly warmupIterations: number;
  /** Warm-up also lasts at least this long (default 0), so a new process's JIT has settled. */
  readonly warmupTimeMs?: number;
}

async function runTask(
  name: string,
  fn: () => Promise<FnReturnedObject | undefined>,
  budget: Budget,
): Promise<{ median: number; p95: number; samples: number }> {
  const bench = new Bench({
    time: budget.timeMs,
    iterations: budget.iterations,
    warmup: budget.warmupIterations > 0,
    warmupIterations: budget.warmupIterations,
    warmupTime: budget.warmupTimeMs ?? 0,
    retainSamples: true,
    throws: true,
  });
  bench.add(name, fn);
  await bench.run();
  const result = bench.tasks[0]?.result;
  if (result?.state !== "completed") throw new Error(`${name}: ${result?.state ?? "no task"}`);
  const stats = summarise(result.latency.samples ?? []);
  return { median: stats.median, p95: stats.p95, samples: stats.count };
}

/**
 * Times `call` with tinybench; CPU is read once around the whole run (warmup included) and
 * divided by the number of calls, so reading /proc never lands inside a timed sample.
 */
export async function measureCalls(
  name: string,
  call: () => Promise<unknown>,
  budget: Budget,
): Promise<Row> {
  let calls = 0;
  const before = sampleCpu();
  const timing = await runTask(
    name,
    async () => {
      calls += 1;
      await call();
      return undefined;
    },
    budget,
  );
  const spent = cpuBetween(before, sampleCpu());
  return { name, ...timing, cpu: { node: spent.node / calls, children: spent.children / calls } };
}

/** What one iteration of a measured operation with per-iteration setup hands back. */
export interface Prepared {
  readonly run: () => Promise<void>;
  readonly dispose: () => Promise<void>;
}

/**
 * Times only `run` of each prepared iteration (setup and disposal excluded, through tinybench's
 * `overriddenDuration`), with CPU read right around it.
 */
export async function measurePrepared(
  name: string,
  prepare: () => Promise<Prepared>,
  budget: Budget,
): Promise<Row> {
  let calls = 0;
  let node = 0;
  let children = 0;
  const timing = await runTask(
    name,
    async () => {
      const prepared = await prepare();
      try {
        const before = sampleCpu();
        const started = performance.now();
        await prepared.run();
        const overriddenDuration = performance.now() - started;
        const spent = cpuBetween(before, sampleCpu());
        calls += 1;
        node += spent.node;
        children += spent.children;
        return { overriddenDuration };
      } finally {
        await prepared.dispose();
      }
    },
    budget,
  );
  return { name, ...timing, cpu: { node: node / calls, children: children / calls } };
}
