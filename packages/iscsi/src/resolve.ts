import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { noCallContext, type CallContext } from "@csi-proxy/exec";
import type { Portal } from "./portal.js";

/**
 * Resolves a host name to every address it has (IPv4 and IPv6, any order), as
 * `dns.lookup(name, { all: true })` does; rejects when the name does not resolve.
 */
export type HostNameResolver = (hostName: string) => Promise<readonly string[]>;

/**
 * The operating system's resolver. On Windows `dns.lookup` is libuv's getaddrinfo (GetAddrInfoW):
 * the hosts file, DNS and the built-in `localhost`, as every other program on the node sees them
 * (Node docs, dns.lookup: "the way other applications on the same system do").
 */
export const systemHostNameResolver: HostNameResolver = async (hostName) =>
  (await lookup(hostName, { all: true, verbatim: true })).map((entry) => entry.address);

/** The resolver's answer, or `null` when it rejects (or throws) for the name. */
async function lookupAll(
  resolve: HostNameResolver,
  hostName: string,
): Promise<readonly unknown[] | null> {
  try {
    return await resolve(hostName);
  } catch {
    return null;
  }
}

/**
 * Every address a connection through the portal can show as its TargetAddress: the IP itself, or
 * all addresses of the host name. `null` when the name does not resolve (now), so callers can
 * refuse rather than guess which sessions are the portal's. A lookup still running when the
 * calling method's `context` ends (deadline or abort) is abandoned: the method fails with its
 * `TIMEOUT`/`ABORTED` error, never with "does not resolve".
 */
export async function resolvePortal(
  portal: Portal,
  resolve: HostNameResolver,
  context: CallContext = noCallContext,
): Promise<readonly string[] | null> {
  if (isIP(portal.address) !== 0) return [portal.address];
  // dns.lookup cannot be cancelled (a libuv thread-pool getaddrinfo): the call stops waiting for it.
  const answer = await context.race(lookupAll(resolve, portal.address));
  if (answer === null) return null;
  // A custom resolver's answer is checked: only IP addresses can match a connection.
  const addresses = (Array.isArray(answer) ? answer : []).filter(
    (a): a is string => typeof a === "string" && isIP(a) !== 0,
  );
  return addresses.length > 0 ? addresses : null;
}
