import { inspect } from "node:util";
import {
  brandedGuard,
  createRedactor,
  CsiProxyError,
  type CsiProxyErrorCode,
  failureReason,
  isCsiProxyError,
  parseErrorId,
  type PowerShellErrorRecord,
} from "@csi-proxy/exec";
import { iscsiStatuses, type IscsiErrorReason } from "./hresults.js";
import type { Portal } from "./portal.js";

/** Options of {@link IscsiError}. */
export interface IscsiErrorOptions {
  /** The error's code. */
  code: CsiProxyErrorCode;
  /** The finer reason. */
  reason: IscsiErrorReason;
  /** The initiator's status (e.g. 0xefff0009) when the failure carried one. */
  hresult?: number | undefined;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * An iSCSI operation failed. Branch on `code` (e.g. `PERMISSION_DENIED`) or the finer `reason`
 * (e.g. `AUTHENTICATION_FAILED`), never on the message, which Windows localises.
 */
export class IscsiError extends CsiProxyError {
  /** A finer reason than `code`, e.g. `AUTHENTICATION_FAILED`. */
  readonly reason: IscsiErrorReason;
  /** The initiator's status (e.g. 0xefff0009) when the failure carried one. */
  readonly hresult: number | undefined;

  constructor(message: string, options: IscsiErrorOptions) {
    super(message, { code: options.code, cause: options.cause });
    this.reason = options.reason;
    this.hresult = options.hresult;
  }
}

Object.defineProperty(IscsiError.prototype, "name", {
  value: "IscsiError",
  writable: true,
  configurable: true,
});

const iscsiErrorGuard = brandedGuard(IscsiError, "csi-proxy.iscsi.IscsiError");

/**
 * Whether `value` is an {@link IscsiError} (from any installed copy, unlike `instanceof`), so its
 * `reason` and `hresult` can be read.
 */
export function isIscsiError(value: unknown): value is IscsiError {
  return iscsiErrorGuard(value);
}

/** The PowerShell error record of a failure, read structurally so duplicate installs still match. */
function recordOf(error: unknown): PowerShellErrorRecord | undefined {
  if (!isCsiProxyError(error)) return undefined;
  return (error as { record?: PowerShellErrorRecord }).record;
}

/** The iSCSI initiator status (`HRESULT 0xefff....` error id) a failure carries, if any. */
export function iscsiStatusOf(error: unknown): number | undefined {
  const id = recordOf(error)?.fullyQualifiedErrorId;
  if (id === undefined) return undefined;
  const info = parseErrorId(id);
  return info.kind === "HRESULT" ? info.code : undefined;
}

/**
 * Turns a host failure into an {@link IscsiError} whose code and reason come from the parsed
 * error id; failures without a known status keep their own code (timeouts, aborts, ...).
 */
export function hostFailure(operation: string, error: unknown): CsiProxyError {
  const hresult = iscsiStatusOf(error);
  const known = hresult === undefined ? undefined : iscsiStatuses.get(hresult);
  const reason = failureReason(error);
  const code = known?.code ?? (isCsiProxyError(error) ? error.code : "COMMAND_FAILED");
  return new IscsiError(`${operation} failed: ${reason}`, {
    code,
    reason: known?.reason ?? "OTHER",
    hresult,
    cause: error,
  });
}

/**
 * Defence in depth for CHAP secrets: exec redacts them from its own errors, but a custom host
 * might not. If a secret shows up anywhere in the error (message, fields, cause chain), the
 * error is replaced by a redacted copy without the leaking cause.
 */
export function withoutSecrets(error: unknown, secrets: readonly string[]): unknown {
  const redact = createRedactor(secrets);
  const shown = inspect(error, { depth: null });
  if (redact(shown) === shown) return error;
  const message = redact(error instanceof Error ? error.message : String(error));
  const code = isCsiProxyError(error) ? error.code : "COMMAND_FAILED";
  const reason = isIscsiError(error) ? error.reason : "OTHER";
  const hresult = isIscsiError(error) ? error.hresult : undefined;
  return new IscsiError(message, { code, reason, hresult });
}

/** The portal is not registered (checked by the script, so no HRESULT). */
export function portalNotFound(operation: string, portal: Portal): IscsiError {
  return new IscsiError(`${operation}: target portal ${formatPortal(portal)} is not registered.`, {
    code: "NOT_FOUND",
    reason: "PORTAL_NOT_FOUND",
  });
}

/** The portal has not discovered the target. */
export function targetNotFound(operation: string, portal: Portal, iqn: string): IscsiError {
  return new IscsiError(
    `${operation}: target ${iqn} was not discovered through ${formatPortal(portal)}.`,
    {
      code: "NOT_FOUND",
      reason: "TARGET_NOT_FOUND",
    },
  );
}

/**
 * The portal's host name does not resolve, and the target has sessions that may go through it:
 * refused rather than risk a duplicate login or logging out another portal's sessions.
 */
export function portalUnresolved(operation: string, portal: Portal): IscsiError {
  return new IscsiError(
    `${operation}: cannot tell which sessions go through target portal ${formatPortal(portal)}: its host name does not resolve. Nothing was changed.`,
    { code: "FAILED_PRECONDITION", reason: "PORTAL_UNREACHABLE" },
  );
}

function formatPortal(portal: Portal): string {
  return portal.address.includes(":")
    ? `[${portal.address}]:${portal.port}`
    : `${portal.address}:${portal.port}`;
}
