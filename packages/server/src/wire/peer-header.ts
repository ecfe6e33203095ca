/**
 * The request header the connection guard adds, last, to every request's header block: the
 * connection's peer as the transport read it (`uid=…,gid=…,pid=…` from SO_PEERCRED, `pid=…` from
 * GetNamedPipeClientProcessId). grpc-js reports a connection's peer from the socket it reads, which
 * for a guarded connection is Node's JavaScript stream and has none.
 */
export const peerHeader = "x-csi-proxy-peer";

// Node joins a header sent more than once into one value, ", " between; the guard's value has none.
const joined = ", ";

/** The value the guard added, whatever a client sent under the same name before it. */
export function guardedPeer(values: readonly unknown[]): string | undefined {
  const last = values.at(-1);
  if (typeof last !== "string") return undefined;
  const at = last.lastIndexOf(joined);
  return at < 0 ? last : last.slice(at + joined.length);
}

/** A peer as the guard sends it: nothing in it can be taken for the join. */
export function peerValue(peer: string): string {
  return peer.replaceAll(joined, ",");
}
