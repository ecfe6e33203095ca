import { isCsiProxyError } from "@csi-proxy/exec";
import { exitCodes, type ExitCodeName } from "./exit-codes.js";

/** A command line the program cannot act on; exits with {@link exitCodes.USAGE}. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The operator answered no at the confirmation prompt; exits with {@link exitCodes.DECLINED}. */
export class DeclinedError extends Error {
  override readonly name = "DeclinedError";
}

/** How a failure ends the process: its exit code and the one line printed for it. */
export interface Failure {
  readonly exitCode: number;
  readonly line: string;
}

// One line per failure: a multi-line PowerShell message would break `2>` logs and grep.
export function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, " ").trim();
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * The exit code and message line of an error. Library errors carry their `code` (their messages
 * are redacted by the library); anything else is unexpected and shows only its message. Once
 * `interrupt` (Ctrl-C) has fired, every failure is the cancellation it caused: at a terminal the
 * interrupt also reaches the processes the run started, so the call in flight may end as a
 * process that died or a command that failed rather than as `ABORTED`.
 */
export function failureOf(error: unknown, interrupt?: AbortSignal): Failure {
  const line = (label: ExitCodeName, message: string): Failure => ({
    exitCode: exitCodes[label],
    line: `csi-proxy: ${label}: ${oneLine(message)}`,
  });
  if (interrupt?.aborted === true && !(isCsiProxyError(error) && error.code === "ABORTED")) {
    const reason = messageOf(interrupt.reason);
    if (error === interrupt.reason) return line("ABORTED", reason);
    const code = isCsiProxyError(error) ? `${error.code}: ` : "";
    return line("ABORTED", `${reason}; the call in flight ended with ${code}${messageOf(error)}`);
  }
  if (isCsiProxyError(error)) return line(error.code, error.message);
  if (error instanceof UsageError) return line("USAGE", error.message);
  if (error instanceof DeclinedError) return line("DECLINED", error.message);
  return line("UNEXPECTED", messageOf(error));
}
