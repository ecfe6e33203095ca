import { tmpdir } from "node:os";
import { join } from "node:path";
import { multistream, pino, type Level, type LevelWithSilent, type StreamEntry } from "pino";
import { LogFile } from "../log-file.js";
import { defaultLogSettings, type LogSettings } from "./klog-flags.js";

/** How the server logs: pino's leveled methods, fields first, then the message. */
export interface ServerLogger {
  error(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  debug(fields: Record<string, unknown>, message: string): void;
  trace(fields: Record<string, unknown>, message: string): void;
}

/** Errors as the log shows them: code and message, never a stack. */
export function errorFields(error: unknown): { error: string; code?: string } {
  const code = (error as { code?: unknown } | undefined)?.code;
  return {
    error: error instanceof Error ? error.message : String(error),
    ...(typeof code === "string" ? { code } : {}),
  };
}

/** A logger that writes nothing: {@link startServer}'s default. */
export const silentLogger: ServerLogger = pino({ level: "silent" });

/** The server's log, with the file it writes (if any) to reopen and close. */
export interface ServerLog {
  readonly logger: ServerLogger;
  /** The log file, when the settings send lines to one. */
  readonly file?: string;
  /** Opens the log file anew (SIGHUP). */
  reopen(): void;
  /** Closes the log file. */
  close(): void;
}

/** The log file's name in `-log_dir` (klog names one per severity and start; this is one file). */
export const logFileName = "csi-proxy-server.log";

// -v: klog logs each request at V(2) and more detail at V(4).
function levelOf(verbosity: number): LevelWithSilent {
  if (verbosity >= 4) return "trace";
  return verbosity >= 2 ? "debug" : "info";
}

// A klog severity as the lowest pino level it lets through (V-logs are klog's INFO too); none
// above FATAL.
const pinoLevelOf = (severity: number): Level | undefined =>
  severity <= 0 ? "trace" : (["warn", "error", "fatal"] as const)[severity - 1];

/**
 * The server's log as klog's flags set it up: JSON lines through pino, to stderr (`stderr`) by
 * default, or to a file (`-logtostderr=false`) that rotates at `-log_file_max_size` keeping one
 * previous file, with what klog would also send to stderr. A line the file cannot take goes to
 * stderr instead: the log never stops a call.
 */
export function createServerLog(
  settings: LogSettings = defaultLogSettings,
  stderr: (line: string) => void,
): ServerLog {
  const level = levelOf(settings.verbosity);
  const toStderr = { write: (line: string) => stderr(line.replace(/\n$/, "")) };
  const streams: StreamEntry[] = [];
  const add = (severity: number, stream: { write: (line: string) => void }) => {
    const lowest = pinoLevelOf(severity);
    if (lowest !== undefined) streams.push({ level: lowest, stream });
  };
  let file: LogFile | undefined;
  if (settings.toStderr) {
    const threshold = settings.legacyStderrThreshold ? 0 : settings.stderrThreshold;
    add(threshold, toStderr);
  } else {
    const path = settings.logFile ?? join(settings.logDir ?? tmpdir(), logFileName);
    const maxBytes = settings.maxSizeMB * 1024 * 1024;
    const opened = new LogFile(path, { maxBytes, keep: 1 }, (message, error) =>
      stderr(JSON.stringify({ level: "warn", msg: message, error: String(error) })),
    );
    file = opened;
    const write = (line: string) => {
      try {
        opened.write(line);
      } catch {
        toStderr.write(line);
      }
    };
    add(0, { write });
    const threshold = settings.alsoToStderr
      ? settings.alsoToStderrThreshold
      : settings.stderrThreshold;
    add(threshold, toStderr);
  }
  const logger = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    multistream(streams),
  );
  return {
    logger,
    ...(file === undefined ? {} : { file: file.path }),
    reopen: () => file?.reopen(),
    close: () => file?.close(),
  };
}
