import { CsiProxyError, type CsiProxyErrorCode } from "./errors.js";
import type { ExecMode } from "./types.js";

/** A PowerShell error record, as the host script captured it (strings already redacted). */
export interface PowerShellErrorRecord {
  /** The exception message: localised on Windows, so for people, not for branching. */
  readonly message: string;
  /** E.g. `CmdletizationQuery_NotFound_Number,Get-Disk` or `StorageWMI 42002,Add-PartitionAccessPath`. */
  readonly fullyQualifiedErrorId: string;
  /** `CategoryInfo.Category` as its enum name (not localised), e.g. `ObjectNotFound`. */
  readonly category: string;
  readonly reason: string;
  readonly targetName: string;
  readonly targetType: string;
  readonly exceptionType: string;
  /** Exception type names from the outer exception down its `InnerException` chain. */
  readonly exceptionChain: readonly string[];
  readonly hResult: number;
  /** `CimException.NativeErrorCode` (e.g. `NotFound`, `AccessDenied`) when a CIM call failed. */
  readonly nativeErrorCode: string | null;
  readonly statusCode: number | null;
  readonly messageId: string | null;
  readonly errorDetails: string | null;
  readonly scriptStackTrace: string;
}

/** Fields of a {@link PowerShellError} beyond its message. */
export interface PowerShellErrorDetails {
  code: CsiProxyErrorCode;
  scriptName: string;
  mode: ExecMode;
  durationMs: number;
  record?: PowerShellErrorRecord | undefined;
  exitCode?: number | undefined;
  signal?: string | undefined;
  stderr?: string;
  /** Output that was not a response frame (host writes, module noise), redacted and truncated. */
  stdout?: string;
  cause?: unknown;
}

/**
 * A call to PowerShell failed: the script threw, the process died or hung, or the answer was
 * unreadable. Secrets are redacted from every field before this is built.
 */
export class PowerShellError extends CsiProxyError {
  readonly scriptName: string;
  readonly mode: ExecMode;
  readonly durationMs: number;
  readonly record: PowerShellErrorRecord | undefined;
  readonly exitCode: number | undefined;
  readonly signal: string | undefined;
  readonly stderr: string;
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

/** What a fully qualified error id says, in a form groups can branch on. */
export interface ErrorIdInfo {
  /** `StorageWMI`/`WindowsSystemError`/`HRESULT` carry a numeric code; `NotFound` is CDXML's query miss. */
  readonly kind: "StorageWMI" | "WindowsSystemError" | "HRESULT" | "NotFound" | "Other";
  readonly code: number | undefined;
  /** The command the id names after its comma, e.g. `Get-Disk`. */
  readonly command: string | undefined;
}

/**
 * Splits a FullyQualifiedErrorId such as `StorageWMI 42002,Add-PartitionAccessPath` or
 * `HRESULT 0x80070005,New-SmbGlobalMapping` into kind, numeric code and command.
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
