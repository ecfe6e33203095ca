const errorBrand = Symbol.for("csi-proxy.error");

/** Every code a csi-proxy error can carry. Callers branch on `code`, never on messages. */
export type CsiProxyErrorCode =
  | "COMMAND_FAILED"
  | "TIMEOUT"
  | "ABORTED"
  | "PROCESS_EXITED"
  | "PARSE_FAILED"
  | "EXECUTABLE_NOT_FOUND"
  | "INVALID_ARGUMENT"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "CONFLICT"
  | "PERMISSION_DENIED"
  | "FAILED_PRECONDITION"
  | "UNSUPPORTED";

/** Options for {@link CsiProxyError}. */
export interface CsiProxyErrorOptions {
  /** The stable code callers branch on. */
  code: CsiProxyErrorCode;
  /** The underlying error, kept as the standard `Error.cause`. */
  cause?: unknown;
}

/**
 * The base of every error this library throws: a stable `code` and the underlying `cause`.
 * Use {@link isCsiProxyError} rather than `instanceof`, which fails across duplicate installs.
 */
export class CsiProxyError extends Error {
  /** The class name, e.g. `CsiProxyError` or `PowerShellError`. */
  declare readonly name: string;
  /** What went wrong, stable across versions and Windows languages. */
  readonly code: CsiProxyErrorCode;

  constructor(message: string, options: CsiProxyErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}

Object.defineProperty(CsiProxyError.prototype, "name", {
  value: "CsiProxyError",
  writable: true,
  configurable: true,
});
Object.defineProperty(CsiProxyError.prototype, errorBrand, { value: true });

/**
 * Whether `value` is an error thrown by any copy of the csi-proxy packages.
 *
 * @example
 * ```ts
 * try { await disk.getDiskStats({ diskNumber: 9 }); }
 * catch (error) { if (isCsiProxyError(error) && error.code === "NOT_FOUND") { ... } }
 * ```
 */
export function isCsiProxyError(value: unknown): value is CsiProxyError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { [errorBrand]?: unknown })[errorBrand] === true
  );
}

/** Shorthand for the argument errors every group raises before touching the host. */
export function invalidArgument(message: string): CsiProxyError {
  return new CsiProxyError(message, { code: "INVALID_ARGUMENT" });
}
