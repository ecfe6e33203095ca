import { isCsiProxyError } from "@csi-proxy/exec";
import { parseCommand, usage, UsageError } from "./args.js";
import { LogFile } from "./log-file.js";
import { createServerLog, errorFields, type ServerLog } from "./logging/logger.js";
import { startServer, type RunningServer } from "./server.js";
import { serverVersion } from "./version.js";

/** Where the bin writes: stdout for the ready line and help, stderr for errors. */
export interface Streams {
  /** Writes one line to stdout. */
  readonly out: (line: string) => void;
  /** Writes one line to stderr. */
  readonly err: (line: string) => void;
}

/** What the bin hears besides `stop`. */
export interface RunHooks {
  /** A `reopen` event here reopens the log files (the bin sends one on SIGHUP, off Windows). */
  readonly reopen?: EventTarget;
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
  hooks: RunHooks = {},
): Promise<number> {
  let running: RunningServer;
  let log: ServerLog | undefined;
  let auditFile: LogFile | undefined;
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
    const { logger } = (log = createServerLog(command.log, streams.err));
    // The audit file is the operator's (0600 when new); each record is written before its call runs.
    if (command.auditLog !== undefined)
      auditFile = new LogFile(command.auditLog, command.auditRotation, (message, error) =>
        logger.warn(errorFields(error), message),
      );
    const file = auditFile;
    const audit = file === undefined ? streams.err : (line: string) => file.write(`${line}\n`);
    running = await startServer({ ...command.options, audit, log: logger });
  } catch (error) {
    auditFile?.close();
    log?.close();
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
  const { logger } = log;
  logger.info(
    { version: serverVersion, endpoints: Object.keys(running.endpoints).length },
    "serving",
  );
  const files = [log, auditFile];
  const reopen = () => {
    for (const file of files) {
      try {
        file?.reopen();
      } catch (error) {
        // The next line retries: an audit line that still cannot be written refuses its call.
        logger.error(errorFields(error), "a log file could not be reopened");
      }
    }
    logger.info({}, "log files reopened");
  };
  hooks.reopen?.addEventListener("reopen", reopen);
  if (!stop.aborted) await new Promise((resolve) => stop.addEventListener("abort", resolve));
  await running.close();
  hooks.reopen?.removeEventListener("reopen", reopen);
  logger.info({}, "stopped");
  auditFile?.close();
  log.close();
  return exitCodes.OK;
}
