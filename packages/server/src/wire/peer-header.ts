/**
 * The request header the connection guard adds, last, to every request's header block: the
 * connection's peer as the transport read it (`uid=…,gid=…,pid=…` from SO_PEERCRED, `pid=…` from
 * GetNamedPipeClientProcessId). grpc-js reports a connection's peer from the socket it reads, which
 * for a guarded connection is Node's JavaScript stream and has none. A client may send the same
 * name: only the last value, the guard's, counts.
 */
export const peerHeader = "x-csi-proxy-peer";

/** The guard's value of {@link peerHeader} among a request's values, or undefined. */
export function guardedPeer(values: readonly unknown[]): string | undefined {
  const last = values.at(-1);
  return typeof last === "string" ? last : undefined;
}
