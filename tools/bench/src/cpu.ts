// CPU time of this Node process and every PowerShell process it started, read from /proc
// (Linux): live descendants by their own counters, exited-and-reaped ones through cutime/cstime.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** The fields of `/proc/<pid>/stat` that the CPU accounting needs (times in clock ticks). */
export interface ProcStat {
  readonly pid: number;
  readonly state: string;
  readonly ppid: number;
  readonly utime: number;
  readonly stime: number;
  readonly cutime: number;
  readonly cstime: number;
}

/** Parses one `/proc/<pid>/stat` line; the command name may hold spaces and parentheses. */
export function parseProcStat(text: string): ProcStat {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) throw new Error(`not a /proc stat line: ${text.slice(0, 80)}`);
  // Fields after the name start at field 3 (state); utime is field 14, so index 11 here.
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const field = (index: number): number => {
    const value = Number(rest[index]);
    if (!Number.isFinite(value)) throw new Error(`bad /proc stat field ${index + 3}`);
    return value;
  };
  return {
    pid: Number(text.slice(0, open).trim()),
    state: rest[0] ?? "?",
    ppid: field(1),
    utime: field(11),
    stime: field(12),
    cutime: field(13),
    cstime: field(14),
  };
}

/** The pids among `stats` that descend from `root` (children, grandchildren, ...), zombies excluded. */
export function descendantsOf(root: number, stats: readonly ProcStat[]): ProcStat[] {
  const found: ProcStat[] = [];
  const parents = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const stat of stats) {
      if (parents.has(stat.ppid) && !parents.has(stat.pid)) {
        parents.add(stat.pid);
        if (stat.state !== "Z") found.push(stat);
        grew = true;
      }
    }
  }
  return found;
}

function readStat(pid: number | "self"): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined; // The process ended between listing and reading.
  }
}

export function allStats(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat !== undefined) stats.push(stat);
  }
  return stats;
}

/** Clock ticks per second (`getconf CLK_TCK`), 100 on every common Linux. */
export const clockTicks: number = (() => {
  try {
    const value = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    return Number.isFinite(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds so far, split into Node itself and its PowerShell processes. */
export interface CpuSample {
  readonly node: number;
  readonly children: number;
}

/**
 * Node's own user+system time (`process.cpuUsage`, microseconds) and, in ticks, every live
 * descendant's utime+stime+cutime+cstime plus this process's cutime+cstime (children already
 * exited and reaped, as in spawn mode). A child's time moves from the live sum to cutime when it
 * exits, so differences between two samples stay exact across exits.
 */
export function sampleCpu(): CpuSample {
  const usage = process.cpuUsage();
  const self = readStat("self");
  let ticks = (self?.cutime ?? 0) + (self?.cstime ?? 0);
  for (const child of descendantsOf(process.pid, allStats()))
    ticks += child.utime + child.stime + child.cutime + child.cstime;
  return { node: (usage.user + usage.system) / 1e6, children: ticks / clockTicks };
}

/** CPU seconds spent between two samples. */
export function cpuBetween(before: CpuSample, after: CpuSample): CpuSample {
  return { node: after.node - before.node, children: after.children - before.children };
}

/** Counters of this process alone, to show which of them see exited children. */
export interface SelfCounters {
  readonly resourceUsage: number;
  readonly cpuUsage: number;
  readonly reapedChildren: number;
}

/** `process.resourceUsage()`, `process.cpuUsage()` and `/proc/self/stat` cutime+cstime, in seconds. */
export function selfCounters(): SelfCounters {
  const resource = process.resourceUsage();
  const usage = process.cpuUsage();
  const self = readStat("self");
  return {
    resourceUsage: (resource.userCPUTime + resource.systemCPUTime) / 1e6,
    cpuUsage: (usage.user + usage.system) / 1e6,
    reapedChildren: ((self?.cutime ?? 0) + (self?.cstime ?? 0)) / clockTicks,
  };
}
