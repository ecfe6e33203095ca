// Memory of the PowerShell processes a shell started, read from Linux's /proc.
import { readFileSync } from "node:fs";
import { allStats, descendantsOf } from "./cpu.js";

/** One process's resident memory now and at its peak, in MiB. */
export interface ProcessMemory {
  readonly pid: number;
  readonly rssMiB: number;
  readonly peakMiB: number;
}

/** `VmRSS`/`VmHWM` of `/proc/<pid>/status` (kB); undefined once the process has ended. */
export function processMemory(pid: number): ProcessMemory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const kib = (field: string): number | undefined => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status);
    return match === null ? undefined : Number(match[1]);
  };
  const rss = kib("VmRSS");
  if (rss === undefined) return undefined; // a zombie has no memory lines
  return { pid, rssMiB: rss / 1024, peakMiB: (kib("VmHWM") ?? rss) / 1024 };
}

/** Memory of every live process descending from `root` (this process by default). */
export function descendantMemory(root: number = process.pid): ProcessMemory[] {
  return descendantsOf(root, allStats()).flatMap((stat) => {
    const memory = processMemory(stat.pid);
    return memory === undefined ? [] : [memory];
  });
}
