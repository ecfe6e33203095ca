import { status } from "@grpc/grpc-js";
import { isCsiProxyError, type CsiProxyErrorCode } from "@csi-proxy/exec";

// The one table from library error codes to gRPC status codes; anything not listed is UNKNOWN
// (a host or command failure), and an error that is not the library's is INTERNAL.
const grpcCodes: Partial<Record<CsiProxyErrorCode, status>> = {
  INVALID_ARGUMENT: status.INVALID_ARGUMENT,
  NOT_FOUND: status.NOT_FOUND,
  ALREADY_EXISTS: status.ALREADY_EXISTS,
  PERMISSION_DENIED: status.PERMISSION_DENIED,
  FAILED_PRECONDITION: status.FAILED_PRECONDITION,
  TIMEOUT: status.DEADLINE_EXCEEDED,
  ABORTED: status.CANCELLED,
};

/** The gRPC status code of an error a handler threw. */
export function grpcStatusOf(error: unknown): status {
  if (!isCsiProxyError(error)) return status.INTERNAL;
  return grpcCodes[error.code] ?? status.UNKNOWN;
}
