import { CsiProxyError, isCsiProxyError, type CsiProxyErrorCode } from "@csi-proxy/exec";

const codes: Record<string, CsiProxyErrorCode> = {
  ENOENT: "NOT_FOUND",
  ENOTDIR: "FAILED_PRECONDITION",
  EEXIST: "ALREADY_EXISTS",
  ENOTEMPTY: "FAILED_PRECONDITION",
  EISDIR: "FAILED_PRECONDITION",
  EACCES: "PERMISSION_DENIED",
  EPERM: "PERMISSION_DENIED",
  EBUSY: "CONFLICT",
  EINVAL: "INVALID_ARGUMENT",
  // The path is longer than the file system takes: the argument is wrong.
  ENAMETOOLONG: "INVALID_ARGUMENT",
  // A link loop (Windows: ERROR_CANT_RESOLVE_FILENAME): the links on disk are wrong, not the call.
  ELOOP: "FAILED_PRECONDITION",
};

/** The Node error code of a failed fs call, if any. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Wraps a failed fs call in a CsiProxyError whose code callers can branch on. A CsiProxyError
 * (the call's own ABORTED or TIMEOUT, a refusal) passes unchanged.
 */
export function fsError(action: string, path: string, error: unknown): CsiProxyError {
  if (isCsiProxyError(error)) return error;
  const errno = errnoCode(error) ?? "UNKNOWN";
  const reason = error instanceof Error ? error.message : String(error);
  return new CsiProxyError(`Could not ${action} ${path}: ${reason}`, {
    code: codes[errno] ?? "COMMAND_FAILED",
    cause: error,
  });
}
