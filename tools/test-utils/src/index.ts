import { readdirSync, readFileSync } from "node:fs";
import { provisionPwsh } from "@csi-proxy/pwsh";
import { describe } from "vitest";

let cached: string | null | undefined;

/**
 * The pwsh the tests run against: the repository's provisioned copy (installed on demand).
 * Undefined only where it cannot be provisioned; with CSI_PROXY_REQUIRE_PWSH=1 that is an error.
 */
export function pwshPath(): string | undefined {
  if (cached !== undefined) return cached ?? undefined;
  const found = provisionPwsh({ quiet: true });
  cached = found ?? null;
  if (found === undefined && process.env.CSI_PROXY_REQUIRE_PWSH === "1") {
    throw new Error(
      "CSI_PROXY_REQUIRE_PWSH=1 but pwsh could not be provisioned: tests that need it must not be skipped.",
    );
  }
  return found;
}

/** `describe` for suites that need real PowerShell: skipped only when pwsh truly cannot be had. */
export function describeWithPwsh(name: string, body: (pwsh: string) => void): void {
  const path = pwshPath();
  if (path === undefined) describe.skip(`${name} (pwsh unavailable)`, () => undefined);
  else describe(name, () => body(path));
}

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

/** Whether a process with this id is still running. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `check` holds or `timeoutMs` passes; returns the last result. */
export async function waitFor(
  check: () => boolean,
  timeoutMs = 10_000,
  stepMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  return check();
}
export { badCallOptions, gate, publicMethods } from "./methods.js";
export type { MethodCall } from "./methods.js";
export { describeErrorGuards } from "./error-guards.js";
export type { ErrorGuardCase } from "./error-guards.js";
export { inBatches, whileSwapping } from "./swapper.js";
