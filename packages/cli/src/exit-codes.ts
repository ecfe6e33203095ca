import type { CsiProxyErrorCode } from "@csi-proxy/exec";

/**
 * The process exit code for each outcome: 0 success, 1 an unexpected failure, 2 a usage error
 * (including a changing command refused for want of `--yes`), 3 the operator declined at the
 * prompt, then one code per {@link CsiProxyErrorCode}, so a script can branch without parsing text.
 * These numbers are part of the command's contract: they never change meaning.
 */
export const exitCodes = Object.freeze({
  /** Success. */
  OK: 0,
  /** An unexpected failure: a bug, or an error without a code. */
  UNEXPECTED: 1,
  /** Bad usage, or a changing command without `--yes` and no terminal to confirm on. */
  USAGE: 2,
  /** The confirmation was answered no: nothing was changed. */
  DECLINED: 3,
  /** The library refused a value before touching the host. */
  INVALID_ARGUMENT: 10,
  /** The disk, volume, service, portal or mapping does not exist. */
  NOT_FOUND: 11,
  /** The object exists already. */
  ALREADY_EXISTS: 12,
  /** The object is in a state that conflicts with the request. */
  CONFLICT: 13,
  /** Windows denied access (run as Administrator). */
  PERMISSION_DENIED: 14,
  /** The host is not in the state the operation needs. */
  FAILED_PRECONDITION: 15,
  /** This Windows lacks the feature or module. */
  UNSUPPORTED: 16,
  /** A PowerShell command failed. */
  COMMAND_FAILED: 17,
  /** A call took longer than allowed. */
  TIMEOUT: 18,
  /** A call was cancelled. */
  ABORTED: 19,
  /** PowerShell exited during a call. */
  PROCESS_EXITED: 20,
  /** PowerShell's output could not be read. */
  PARSE_FAILED: 21,
  /** PowerShell (powershell.exe or pwsh) was not found. */
  EXECUTABLE_NOT_FOUND: 22,
} as const satisfies Record<
  CsiProxyErrorCode | "OK" | "UNEXPECTED" | "USAGE" | "DECLINED",
  number
>);

/** A name of {@link exitCodes}: a library error code or one of the command's own outcomes. */
export type ExitCodeName = keyof typeof exitCodes;

const meanings: Readonly<Record<ExitCodeName, string>> = {
  OK: "success",
  UNEXPECTED: "an unexpected failure (a bug, or an error without a code)",
  USAGE: "bad usage, or a changing command without --yes and no terminal to confirm on",
  DECLINED: "the confirmation was answered no: nothing was changed",
  INVALID_ARGUMENT: "the library refused a value before touching the host",
  NOT_FOUND: "the disk, volume, service, portal or mapping does not exist",
  ALREADY_EXISTS: "the object exists already",
  CONFLICT: "the object is in a state that conflicts with the request",
  PERMISSION_DENIED: "Windows denied access (run as Administrator)",
  FAILED_PRECONDITION: "the host is not in the state the operation needs",
  UNSUPPORTED: "this Windows lacks the feature or module",
  COMMAND_FAILED: "a PowerShell command failed",
  TIMEOUT: "a call took longer than allowed",
  ABORTED: "a call was cancelled",
  PROCESS_EXITED: "PowerShell exited during a call",
  PARSE_FAILED: "PowerShell's output could not be read",
  EXECUTABLE_NOT_FOUND: "PowerShell (powershell.exe or pwsh) was not found",
};

/** The exit-code table as `--help` and the README show it. */
export function exitCodeTable(): string {
  const width = Math.max(...Object.keys(exitCodes).map((name) => name.length));
  return Object.entries(exitCodes)
    .map(([name, code]) => {
      const meaning = meanings[name as ExitCodeName];
      return `  ${String(code).padStart(2)}  ${name.padEnd(width)}  ${meaning}`;
    })
    .join("\n");
}
