// Where a PowerShell process's CPU goes, by thread (Linux: /proc/<pid>/task): the thread that runs
// the scripts, .NET's tiered-compilation worker, and everything else.
import { readdirSync, readFileSync } from "node:fs";
import { allStats, clockTicks, descendantsOf, parseProcStat } from "./cpu.js";

/** CPU seconds of this Node process's PowerShell descendants, by kind of thread. */
export interface ThreadCpu {
  /** PowerShell's "Pipeline Execution Thread", which runs the host loop and the scripts. */
  readonly pipeline: number;
  /** .NET's tiered-compilation background worker (re-JIT, PGO instrumentation). */
  readonly tiering: number;
  /** Every other thread, exited ones included (GC, thread pool, console). */
  readonly other: number;
}

/** The kind of a thread, by the (15-character) name Linux keeps for it. */
export function threadKind(name: string): keyof ThreadCpu {
  if (name.startsWith("Pipeline Exec")) return "pipeline";
  if (name.startsWith(".NET Tiered")) return "tiering";
  return "other";
}

function ticksOf(path: string): { name: string; ticks: number } | undefined {
  try {
    const text = readFileSync(path, "utf8");
    const stat = parseProcStat(text);
    const name = text.slice(text.indexOf("(") + 1, text.lastIndexOf(")"));
    return { name, ticks: stat.utime + stat.stime };
  } catch {
    return undefined; // The thread or process ended between listing and reading.
  }
}

function threadsOf(pid: number): { name: string; ticks: number }[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
      const thread = ticksOf(`/proc/${pid}/task/${task}/stat`);
      return thread === undefined ? [] : [thread];
    });
  } catch {
    return [];
  }
}

/** A snapshot of every live PowerShell descendant's CPU, by kind of thread. */
export function sampleThreads(): ThreadCpu {
  let pipeline = 0;
  let tiering = 0;
  let total = 0;
  for (const child of descendantsOf(process.pid, allStats())) {
    // The process's own counters include threads that have exited; the rest is "other".
    total += child.utime + child.stime;
    for (const thread of threadsOf(child.pid)) {
      const kind = threadKind(thread.name);
      if (kind === "pipeline") pipeline += thread.ticks;
      else if (kind === "tiering") tiering += thread.ticks;
    }
  }
  return {
    pipeline: pipeline / clockTicks,
    tiering: tiering / clockTicks,
    other: (total - pipeline - tiering) / clockTicks,
  };
}

/** CPU seconds per call between two snapshots. */
export function threadsPerCall(before: ThreadCpu, after: ThreadCpu, calls: number): ThreadCpu {
  return {
    pipeline: (after.pipeline - before.pipeline) / calls,
    tiering: (after.tiering - before.tiering) / calls,
    other: (after.other - before.other) / calls,
  };
}
