import { grpcStatusCodes, grpcStatusOf as libraryStatusOf, isCsiProxyError } from "@csi-proxy/exec";

/**
 * The gRPC status code of an error a handler threw: `@csi-proxy/exec`'s table, except that a
 * host or command failure stays UNKNOWN (upstream's v1 server answers every failure so, and its
 * clients expect it) and an error that is not the library's is INTERNAL (a bug in the server).
 */
export function grpcStatusOf(error: unknown): number {
  if (!isCsiProxyError(error)) return grpcStatusCodes.INTERNAL;
  const status = libraryStatusOf(error);
  return status.name === "INTERNAL" ? grpcStatusCodes.UNKNOWN : status.code;
}
