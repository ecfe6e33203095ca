import { isCsiProxyError, type CsiProxyErrorCode } from "./errors.js";

/** gRPC's status codes by name, with their numbers (grpc/grpc, doc/statuscodes.md). */
export const grpcStatusCodes = Object.freeze({
  /** Not an error: the call succeeded. */
  OK: 0,
  /** The operation was cancelled, typically by the caller. */
  CANCELLED: 1,
  /** Unknown error, e.g. an error raised without enough information. */
  UNKNOWN: 2,
  /** The client gave an invalid argument, whatever the system's state. */
  INVALID_ARGUMENT: 3,
  /** The deadline expired before the operation could complete. */
  DEADLINE_EXCEEDED: 4,
  /** A requested entity (such as a file or directory) was not found. */
  NOT_FOUND: 5,
  /** The entity the client tried to create already exists. */
  ALREADY_EXISTS: 6,
  /** The caller lacks permission to run the operation. */
  PERMISSION_DENIED: 7,
  /** Some resource has been exhausted, e.g. a quota or disk space. */
  RESOURCE_EXHAUSTED: 8,
  /** The system is not in the state the operation requires. */
  FAILED_PRECONDITION: 9,
  /** The operation was aborted, typically by a concurrency issue; retry the sequence. */
  ABORTED: 10,
  /** The operation was attempted past the valid range. */
  OUT_OF_RANGE: 11,
  /** The operation is not implemented, supported or enabled. */
  UNIMPLEMENTED: 12,
  /** Internal error: an invariant the system relies on is broken. */
  INTERNAL: 13,
  /** The service is currently unavailable; most likely transient, so a retry may succeed. */
  UNAVAILABLE: 14,
  /** Unrecoverable data loss or corruption. */
  DATA_LOSS: 15,
  /** The request lacks valid authentication credentials. */
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
  /** A value refused before touching the host is the caller's invalid argument. */
  INVALID_ARGUMENT: "INVALID_ARGUMENT",
  /** The object does not exist. */
  NOT_FOUND: "NOT_FOUND",
  /** The object exists already. */
  ALREADY_EXISTS: "ALREADY_EXISTS",
  /** Windows denied access. */
  PERMISSION_DENIED: "PERMISSION_DENIED",
  /** The host is not in the state the operation needs. */
  FAILED_PRECONDITION: "FAILED_PRECONDITION",
  /** A call that took longer than allowed missed its deadline. */
  TIMEOUT: "DEADLINE_EXCEEDED",
  /** A call cancelled by the caller's signal. */
  ABORTED: "CANCELLED",
  /** A concurrent change or a busy resource: gRPC's "retry the sequence". */
  CONFLICT: "ABORTED",
  /** A PowerShell process died and the pool replaces it: transient. */
  PROCESS_EXITED: "UNAVAILABLE",
  /** No PowerShell on the node: the node, not the call, must change. */
  EXECUTABLE_NOT_FOUND: "FAILED_PRECONDITION",
  /** This Windows lacks the feature or module. */
  UNSUPPORTED: "UNIMPLEMENTED",
  /** Windows failed in a way the library does not classify. */
  COMMAND_FAILED: "INTERNAL",
  /** Windows answered what the library cannot read. */
  PARSE_FAILED: "INTERNAL",
} as const satisfies Record<CsiProxyErrorCode, GrpcStatusName>);

/** A gRPC status: its number (what `@grpc/grpc-js`'s `status` enum holds) and its name. */
export interface GrpcStatus {
  /** The status's number, as gRPC sends it. */
  readonly code: (typeof grpcStatusCodes)[GrpcStatusName];
  /** The status's name, e.g. `"DEADLINE_EXCEEDED"`. */
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
