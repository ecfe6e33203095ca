import { isIP } from "node:net";
import { noCallContext, type CallContext } from "@csi-proxy/exec";
import type { HostLogout, HostSession } from "./host-types.js";
import type { Portal } from "./portal.js";
import { resolvePortal, type HostNameResolver } from "./resolve.js";

/** An address and port a connection goes to, or a registered portal's as registered. */
export interface Endpoint {
  readonly address: string;
  readonly port: number;
}

/** A connected session as `iscsi.disconnect` reports it when Node must attribute it. */
export interface ListedSession {
  readonly sessionIdentifier: string;
  readonly targetNodeAddress: string;
  readonly isPersistent: boolean;
  readonly connections: readonly Endpoint[];
}

/**
 * Which sessions belong to `portal`: those with a connection to one of its addresses, and those
 * no other registered portal offering the target can claim. A connection's TargetAddress is the
 * address the session ended at, which a target that redirects logins (RFC 7143 §11.13.5,
 * "moved temporarily") sets to a data address neither portal's text nor DNS answer shows, so
 * such a session is still the portal's unless another portal's addresses claim it, or another
 * portal's name does not resolve now (it might). When this portal's own name does not resolve,
 * the other portals' claims decide, so an unstage does not wait for its DNS. `ownAddresses` is
 * the portal's own answer from {@link resolvePortal}, looked up once by the caller.
 */
export async function attributeSessions(
  portal: Portal,
  ownAddresses: readonly string[] | null,
  sessions: readonly ListedSession[],
  otherPortals: readonly Endpoint[],
  resolve: HostNameResolver,
  context: CallContext = noCallContext,
): Promise<HostSession[]> {
  if (sessions.length === 0) return [];
  const own = endpointKeys([portal.address], portal.port, ownAddresses);
  const answers = await Promise.all(otherPortals.map((o) => resolvePortal(o, resolve, context)));
  // A session another portal might claim, could its name be resolved, is left alone.
  const othersKnown = answers.every((addresses) => addresses !== null);
  const claimed = new Set(
    otherPortals.flatMap((other, i) => [
      ...endpointKeys([other.address], other.port, answers[i] ?? null),
    ]),
  );
  return sessions.map((session) => {
    const keys = session.connections.map((c) => endpointKey(c.address, c.port));
    const mine = keys.some((key) => own.has(key));
    return {
      sessionIdentifier: session.sessionIdentifier,
      targetNodeAddress: session.targetNodeAddress,
      isPersistent: session.isPersistent,
      viaPortal: mine || (othersKnown && !keys.some((key) => claimed.has(key))),
    };
  });
}

/** The endpoints a portal stands for: its text and its resolved addresses, on its port. */
export function endpointKeys(
  texts: readonly string[],
  port: number,
  resolved: readonly string[] | null,
): Set<string> {
  return new Set([...texts, ...(resolved ?? [])].map((address) => endpointKey(address, port)));
}

/** One spelling per address: IPv6 lower-cased, an IPv4-mapped IPv6 address as its IPv4. */
export function endpointKey(address: string, port: number): string {
  let text = address.trim().toLowerCase();
  if (isIP(text) === 6 && text.startsWith("::ffff:") && isIP(text.slice(7)) === 4)
    text = text.slice(7);
  return `${text}|${port}`;
}

/**
 * The sessions a disconnect logs out: the portal's, never one another portal claims (`null`,
 * from a host that cannot tell, counts as the portal's: no other portal claimed it). Each names
 * its target as Windows stores it; persistent logins are unregistered too.
 */
export function chooseLogouts(sessions: readonly HostSession[]): HostLogout[] {
  return sessions
    .filter((s) => s.viaPortal !== false)
    .map((s) => ({
      sessionIdentifier: s.sessionIdentifier,
      targetNodeAddress: s.targetNodeAddress,
      unregister: s.isPersistent,
    }));
}
