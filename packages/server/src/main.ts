import { openSync, writeSync } from "node:fs";
import { isCsiProxyError } from "@csi-proxy/exec";
import { parseCommand, usage, UsageError } from "./args.js";
import { startServer, type RunningServer } from "./server.js";
import { serverVersion } from "./version.js";

/** Where the bin writes: stdout for the ready line and help, stderr for errors. */
export interface Streams {
  /** Writes one line to stdout. */
  readonly out: (line: string) => void;
  /** Writes one line to stderr. */
  readonly err: (line: string) => void;
}

// The audit file is the operator's (0600 when new); each record is written before its call runs.
function appendTo(file: string): (line: string) => void {
  const fd = openSync(file, "a", 0o600);
  return (line) => {
    writeSync(fd, `${line}\n`);
  };
}

/** Exit codes of the bin. */
export const exitCodes = {
  /** Stopped cleanly after SIGTERM or SIGINT (or printed the help or the version). */
  OK: 0,
  /** Could not start (bad policy, socket in use, no node to serve, ...). */
  FAILED: 1,
  /** Bad command line. */
  USAGE: 2,
} as const;

/**
 * Runs the bin: starts the server, prints the ready line, and resolves once `stop` aborts and
 * the server is down (sockets removed). Resolves with the exit code.
 */
export async function runServer(
  argv: readonly string[],
  stop: AbortSignal,
  streams: Streams,
): Promise<number> {
  let running: RunningServer;
  try {
    const command = parseCommand(argv);
    if (command.help) {
      streams.out(usage);
      return exitCodes.OK;
    }
    if (command.version === true) {
      streams.out(serverVersion);
      return exitCodes.OK;
    }
    const audit = command.auditLog === undefined ? streams.err : appendTo(command.auditLog);
    running = await startServer({ ...command.options, audit });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError) {
      streams.err(`csi-proxy-server: ${message}\n${usage}`);
      return exitCodes.USAGE;
    }
    const code = isCsiProxyError(error) ? `${error.code}: ` : "";
    streams.err(`csi-proxy-server: ${code}${message}`);
    return exitCodes.FAILED;
  }
  const ready = {
    ready: true,
    version: serverVersion,
    endpoints: running.endpoints,
    kubeletPath: running.kubeletPath,
    workingDirs: running.workingDirs,
    pid: process.pid,
    ...(running.metricsAddress === undefined ? {} : { metricsAddress: running.metricsAddress }),
    ...(running.simulator === undefined ? {} : { simulator: running.simulator }),
  };
  if (running.policyWarning !== undefined)
    streams.err(`csi-proxy-server: warning: ${running.policyWarning}`);
  streams.out(JSON.stringify(ready));
  if (!stop.aborted) await new Promise((resolve) => stop.addEventListener("abort", resolve));
  await running.close();
  return exitCodes.OK;
}
