import { connect } from "node:net";
import type { PowerShell } from "@csi-proxy/exec";
import { errorFields, type ServerLogger } from "./logging/logger.js";

/** One check of `/readyz`: its name and, when it failed, why (nothing an attacker can use). */
export interface Check {
  readonly name: string;
  readonly failure?: string;
}

/** What `/readyz` checks. */
export interface ReadinessSources {
  /** Every endpoint by key, once they listen (undefined before). */
  readonly endpoints: () => Readonly<Record<string, string>> | undefined;
  /** The PowerShell host the calls share. */
  readonly shell: PowerShell;
  /** Whether the last audit line could be written. */
  readonly auditHealthy: () => boolean;
  readonly log: ServerLogger;
}

const connectTimeoutMs = 2_000;
const probeTimeoutMs = 15_000;
// A result this young is answered again: an unauthenticated flood of /readyz runs one check.
const reuseMs = 2_000;

function reachable(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), connectTimeoutMs);
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

async function endpointsCheck(sources: ReadinessSources): Promise<Check> {
  const endpoints = sources.endpoints();
  if (endpoints === undefined) return { name: "endpoints", failure: "not listening yet" };
  const entries = Object.entries(endpoints);
  const answers = await Promise.all(entries.map(([, path]) => reachable(path)));
  const down = entries.filter((_, i) => answers[i] !== true).map(([key]) => key);
  if (down.length === 0) return { name: "endpoints" };
  return {
    name: "endpoints",
    failure: `${down.length} of ${entries.length} not listening: ${down.join(", ")}`,
  };
}

// A process running a call shows PowerShell starts; else a no-op call must start one.
async function powershellCheck(sources: ReadinessSources): Promise<Check> {
  if ((sources.shell.stats?.().busy ?? 0) > 0) return { name: "powershell" };
  try {
    await sources.shell.warmUp({ timeoutMs: probeTimeoutMs });
    return { name: "powershell" };
  } catch (error) {
    sources.log.warn(errorFields(error), "readiness: PowerShell could not start");
    const { code } = errorFields(error);
    return {
      name: "powershell",
      failure: `could not start${code === undefined ? "" : ` (${code})`}`,
    };
  }
}

/**
 * `/readyz`'s checks: every endpoint of every set accepts a connection, PowerShell starts and
 * answers, and the audit log takes lines (else every call is refused). Concurrent requests share
 * one run, and a result younger than 2 s is answered again.
 */
export function readiness(sources: ReadinessSources): () => Promise<readonly Check[]> {
  let last: { checks: Promise<readonly Check[]>; settledAt?: number } | undefined;
  const run = async (): Promise<readonly Check[]> => [
    await endpointsCheck(sources),
    await powershellCheck(sources),
    sources.auditHealthy() ? { name: "audit-log" } : { name: "audit-log", failure: "cannot write" },
  ];
  return () => {
    const settledAt = last?.settledAt;
    if (last !== undefined && (settledAt === undefined || performance.now() - settledAt < reuseMs))
      return last.checks;
    const entry: { checks: Promise<readonly Check[]>; settledAt?: number } = { checks: run() };
    void entry.checks.then(() => (entry.settledAt = performance.now()));
    last = entry;
    return entry.checks;
  };
}

/** The body of `/readyz` (Kubernetes' style): a line per check, then the verdict. */
export function readinessText(checks: readonly Check[]): { ready: boolean; text: string } {
  const lines = checks.map(({ name, failure }) =>
    failure === undefined ? `[+]${name} ok` : `[-]${name} failed: ${failure}`,
  );
  const ready = checks.every((check) => check.failure === undefined);
  return {
    ready,
    text: `${lines.join("\n")}\n${ready ? "readyz check passed" : "readyz check failed"}\n`,
  };
}
