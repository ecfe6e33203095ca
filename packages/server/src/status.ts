import { status } from "@grpc/grpc-js";
import { grpcStatusOf as libraryStatusOf, isCsiProxyError } from "@csi-proxy/exec";
import { AuditUnavailableError } from "./audit-trail.js";

/**
 * The gRPC status code of an error a handler threw: `@csi-proxy/exec`'s table, except that a
 * host or command failure stays UNKNOWN (upstream's v1 server answers every failure so, and its
 * clients expect it), a call refused for want of its audit line is UNAVAILABLE (retry), and an
 * error that is not the library's is INTERNAL (a bug in the server).
 */
export function grpcStatusOf(error: unknown): status {
  if (error instanceof AuditUnavailableError) return status.UNAVAILABLE;
  if (!isCsiProxyError(error)) return status.INTERNAL;
  const { name } = libraryStatusOf(error);
  return name === "INTERNAL" ? status.UNKNOWN : status[name];
}
