import type { CsiProxyErrorCode } from "@csi-proxy/exec";

/**
 * The process exit code for each outcome: 0 success, 1 an unexpected failure, 2 a usage error
 * (including a changing command refused for want of `--yes`), 3 the operator declined at the
 * prompt, then one code per {@link CsiProxyErrorCode}, so a script can branch without parsing text.
 * These numbers are part of the command's contract: they never change meaning.
 */
export const exitCodes = Object.freeze({
  OK: 0,
  UNEXPECTED: 1,
  USAGE: 2,
  DECLINED: 3,
  INVALID_ARGUMENT: 10,
  NOT_FOUND: 11,
  ALREADY_EXISTS: 12,
  CONFLICT: 13,
  PERMISSION_DENIED: 14,
  FAILED_PRECONDITION: 15,
  UNSUPPORTED: 16,
  COMMAND_FAILED: 17,
  TIMEOUT: 18,
  ABORTED: 19,
  PROCESS_EXITED: 20,
  PARSE_FAILED: 21,
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
