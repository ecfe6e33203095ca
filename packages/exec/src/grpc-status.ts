import { isCsiProxyError, type CsiProxyErrorCode } from "./errors.js";

/** gRPC's status codes by name, with their numbers (grpc/grpc, doc/statuscodes.md). */
export const grpcStatusCodes = Object.freeze({
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const);

/** The name of a gRPC status code, e.g. `"DEADLINE_EXCEEDED"`. */
export type GrpcStatusName = keyof typeof grpcStatusCodes;

/**
 * The gRPC status a driver answers with for each error code of this library, so drivers do not
 * each write (and drift from) their own table. Adding an error code without a row here breaks
 * the build. Choices beyond the same-named codes:
 * - `TIMEOUT` → `DEADLINE_EXCEEDED`, `ABORTED` (the caller's signal) → `CANCELLED`;
 * - `CONFLICT` (a concurrent change or a busy resource) → `ABORTED`, gRPC's "retry the sequence";
 * - `PROCESS_EXITED` (a PowerShell process died; the pool replaces it) → `UNAVAILABLE`, transient;
 * - `EXECUTABLE_NOT_FOUND` (no PowerShell on the node) → `FAILED_PRECONDITION`: the node, not
 *   the call, must change;
 * - `UNSUPPORTED` → `UNIMPLEMENTED`;
 * - `COMMAND_FAILED`, `PARSE_FAILED` (Windows failed in a way the library does not classify, or
 *   answered what it cannot read) → `INTERNAL`.
 */
export const grpcStatusByErrorCode = Object.freeze({
  INVALID_ARGUMENT: "INVALID_ARGUMENT",
  NOT_FOUND: "NOT_FOUND",
  ALREADY_EXISTS: "ALREADY_EXISTS",
  PERMISSION_DENIED: "PERMISSION_DENIED",
  FAILED_PRECONDITION: "FAILED_PRECONDITION",
  TIMEOUT: "DEADLINE_EXCEEDED",
  ABORTED: "CANCELLED",
  CONFLICT: "ABORTED",
  PROCESS_EXITED: "UNAVAILABLE",
  EXECUTABLE_NOT_FOUND: "FAILED_PRECONDITION",
  UNSUPPORTED: "UNIMPLEMENTED",
  COMMAND_FAILED: "INTERNAL",
  PARSE_FAILED: "INTERNAL",
} as const satisfies Record<CsiProxyErrorCode, GrpcStatusName>);

/** A gRPC status: its number (what `@grpc/grpc-js`'s `status` enum holds) and its name. */
export interface GrpcStatus {
  readonly code: (typeof grpcStatusCodes)[GrpcStatusName];
  readonly name: GrpcStatusName;
}

/**
 * The gRPC status for an error thrown by any csi-proxy package (any copy of it); `UNKNOWN` for
 * anything else, which is a bug in the caller or the library, never a user error.
 *
 * @example
 * ```ts
 * catch (error) {
 *   const { code } = grpcStatusOf(error);
 *   callback({ code, details: error instanceof Error ? error.message : String(error) });
 * }
 * ```
 */
export function grpcStatusOf(error: unknown): GrpcStatus {
  const name: GrpcStatusName =
    isCsiProxyError(error) && Object.hasOwn(grpcStatusByErrorCode, error.code)
      ? grpcStatusByErrorCode[error.code]
      : "UNKNOWN";
  return { code: grpcStatusCodes[name], name };
}
