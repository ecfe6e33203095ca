import { CsiProxyError, type CsiProxyErrorCode } from "./errors.js";
import { brandedGuard } from "./brand.js";
import type { ExecMode } from "./types.js";

/** A PowerShell error record, as the host script captured it (strings already redacted). */
export interface PowerShellErrorRecord {
  /** The exception message: localised on Windows, so for people, not for branching. */
  readonly message: string;
  /** E.g. `CmdletizationQuery_NotFound_Number,Get-Disk` or `StorageWMI 42002,Add-PartitionAccessPath`. */
  readonly fullyQualifiedErrorId: string;
  /** `CategoryInfo.Category` as its enum name (not localised), e.g. `ObjectNotFound`. */
  readonly category: string;
  /** `CategoryInfo.Reason`, usually the exception's short type name. */
  readonly reason: string;
  /** `CategoryInfo.TargetName`: what the failing command worked on. */
  readonly targetName: string;
  /** `CategoryInfo.TargetType`. */
  readonly targetType: string;
  /** Full type name of the outer exception. */
  readonly exceptionType: string;
  /** Exception type names from the outer exception down its `InnerException` chain. */
  readonly exceptionChain: readonly string[];
  /** The outer exception's HResult. */
  readonly hResult: number;
  /** `CimException.NativeErrorCode` (e.g. `NotFound`, `AccessDenied`) when a CIM call failed. */
  readonly nativeErrorCode: string | null;
  /**
   * `CimException.StatusCode` when a CIM call failed: the MI result (`CIM_Error.CIMStatusCode`,
   * e.g. 1 = Failed for every StorageWMI failure), not the provider's code. Branch on the
   * StorageWMI code through `fullyQualifiedErrorId` (`parseErrorId`) or `messageId`.
   */
  readonly statusCode: number | null;
  /** `CimException.MessageId` when a CIM call failed. */
  readonly messageId: string | null;
  /** `ErrorDetails.Message`, when the command set one. */
  readonly errorDetails: string | null;
  /** Where in the script it failed. */
  readonly scriptStackTrace: string;
}

/** Fields of a {@link PowerShellError} beyond its message. */
export interface PowerShellErrorDetails {
  /** The error's code. */
  code: CsiProxyErrorCode;
  /** {@link Script.name} of the failed call. */
  scriptName: string;
  /** The mode the call ran in. */
  mode: ExecMode;
  /** How long the call ran. */
  durationMs: number;
  /** The captured error record, when the script threw. */
  record?: PowerShellErrorRecord | undefined;
  /** The process's exit code, when it exited. */
  exitCode?: number | undefined;
  /** The signal that ended the process, when one did. */
  signal?: string | undefined;
  /** The process's standard error, redacted and truncated. */
  stderr?: string;
  /** Output that was not a response frame (host writes, module noise), redacted and truncated. */
  stdout?: string;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * A call to PowerShell failed: the script threw, the process died or hung, or the answer was
 * unreadable. Secrets are redacted from every field before this is built.
 */
export class PowerShellError extends CsiProxyError {
  /** {@link Script.name} of the failed call. */
  readonly scriptName: string;
  /** The mode the call ran in. */
  readonly mode: ExecMode;
  /** How long the call ran, in milliseconds. */
  readonly durationMs: number;
  /** The captured error record when the script threw; branch on its `fullyQualifiedErrorId`. */
  readonly record: PowerShellErrorRecord | undefined;
  /** The process's exit code, when it exited. */
  readonly exitCode: number | undefined;
  /** The signal that ended the process, when one did. */
  readonly signal: string | undefined;
  /** The process's standard error, redacted and truncated; `""` when none. */
  readonly stderr: string;
  /** Output that was not a response frame, redacted and truncated; `""` when none. */
  readonly stdout: string;
  /** True when the call ran past its `timeoutMs` and its process was killed. */
  readonly timedOut: boolean;

  constructor(message: string, details: PowerShellErrorDetails) {
    super(message, { code: details.code, cause: details.cause });
    this.scriptName = details.scriptName;
    this.mode = details.mode;
    this.durationMs = details.durationMs;
    this.record = details.record;
    this.exitCode = details.exitCode;
    this.signal = details.signal;
    this.stderr = details.stderr ?? "";
    this.stdout = details.stdout ?? "";
    this.timedOut = details.code === "TIMEOUT";
  }
}

Object.defineProperty(PowerShellError.prototype, "name", {
  value: "PowerShellError",
  writable: true,
  configurable: true,
});

const powerShellErrorGuard = brandedGuard(PowerShellError, "csi-proxy.exec.PowerShellError");

/**
 * Whether `value` is a {@link PowerShellError} from any installed copy of this package (a
 * `Symbol.for` brand, so it works across duplicate installs where `instanceof` fails).
 */
export function isPowerShellError(value: unknown): value is PowerShellError {
  return powerShellErrorGuard(value);
}

/** What a fully qualified error id says, in a form groups can branch on. */
export interface ErrorIdInfo {
  /** `StorageWMI`/`WindowsSystemError`/`HRESULT` carry a numeric code; `NotFound` is CDXML's query miss. */
  readonly kind: "StorageWMI" | "WindowsSystemError" | "HRESULT" | "NotFound" | "Other";
  /** The numeric code (StorageWMI, Win32 or HRESULT value), when the kind has one. */
  readonly code: number | undefined;
  /** The command the id names after its comma, e.g. `Get-Disk`. */
  readonly command: string | undefined;
}

/**
 * Splits a FullyQualifiedErrorId such as `StorageWMI 42002,Add-PartitionAccessPath` or
 * `HRESULT 0x80070005,New-SmbGlobalMapping` into kind, numeric code and command.
 *
 * @example
 * ```ts
 * parseErrorId("StorageWMI 42002,New-Partition");
 * // { kind: "StorageWMI", code: 42002, command: "New-Partition" }
 * ```
 */
export function parseErrorId(id: string): ErrorIdInfo {
  const comma = id.indexOf(",");
  const head = (comma === -1 ? id : id.slice(0, comma)).trim();
  const command = comma === -1 ? undefined : id.slice(comma + 1).trim() || undefined;
  let match = /^StorageWMI (\d+)$/.exec(head);
  if (match) return { kind: "StorageWMI", code: Number(match[1]), command };
  match = /^Windows System Error (\d+)$/.exec(head);
  if (match) return { kind: "WindowsSystemError", code: Number(match[1]), command };
  match = /^HRESULT (0x[0-9a-fA-F]+)$/.exec(head);
  if (match) return { kind: "HRESULT", code: Number.parseInt(match[1] ?? "", 16), command };
  if (head.startsWith("CmdletizationQuery_NotFound"))
    return { kind: "NotFound", code: undefined, command };
  return { kind: "Other", code: undefined, command };
}

/**
 * What went wrong, for a group that names its own operation around it: a script's
 * `<script> failed: ` prefix is dropped so the message says `failed:` once.
 *
 * @example
 * ```ts
 * throw new CsiProxyError(`getDiskStats(disk 1) failed: ${failureReason(error)}`, { code, cause: error });
 * ```
 */
export function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const prefix = isPowerShellError(error) ? `${error.scriptName} failed: ` : undefined;
  return prefix !== undefined && error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
}
