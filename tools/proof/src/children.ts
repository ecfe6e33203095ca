import { readdirSync, readFileSync } from "node:fs";

/** Process ids of the live (non-zombie) children of `parentPid`, read from Linux's /proc. */
export function childPids(parentPid = process.pid): number[] {
  if (process.platform !== "linux") return [];
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // Fields after the parenthesised command name: state, ppid, ...
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] !== "Z" && Number(fields[1]) === parentPid) pids.push(Number(entry));
  }
  return pids;
}
