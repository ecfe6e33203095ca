// The simulated host's name table: the only way a host name becomes addresses in the simulator
// (no real DNS). Servers are declared by IP with optional names; `localhost` is built in.
import { isIP } from "node:net";
import type { SimState } from "./types.js";

/** One name the simulated host resolves, with every address it resolves to, in order. */
export interface IscsiHostNameState {
  /** The host name, as first declared. */
  name: string;
  /** The addresses it resolves to, in order. */
  addresses: string[];
}

/**
 * What `localhost` resolves to on Windows: both loopback addresses, IPv6 first. Windows 7 and later
 * answer it in the resolver itself (the default hosts file says "localhost name resolution is
 * handled within DNS itself"), and RFC 6724's default policy ranks ::1 above IPv4. The order
 * only decides which server a login reaches; matching uses every address.
 */
export const localhostAddresses: readonly string[] = Object.freeze(["::1", "127.0.0.1"]);

// DNS names compare case-insensitively, and a trailing dot (fully qualified) names the same host.
function nameKey(name: string): string {
  return (name.endsWith(".") ? name.slice(0, -1) : name).toLowerCase();
}

/** The name table of a scenario: `localhost`, then every server's `names`, merged by name. */
export function buildIscsiHostNames(
  servers: readonly { address: string; names?: readonly string[] | undefined }[],
): IscsiHostNameState[] {
  const table = new Map<string, IscsiHostNameState>([
    ["localhost", { name: "localhost", addresses: [...localhostAddresses] }],
  ]);
  for (const server of servers) {
    for (const name of server.names ?? []) {
      const key = nameKey(name);
      const entry = table.get(key) ?? { name, addresses: [] };
      if (!entry.addresses.includes(server.address)) entry.addresses.push(server.address);
      table.set(key, entry);
    }
  }
  return [...table.values()];
}

/** An IP address stands for itself; a name resolves through the table only; else none. */
export function resolveIscsiHostName(
  hosts: readonly IscsiHostNameState[] | undefined,
  name: string,
): string[] {
  if (isIP(name) !== 0) return [name];
  const key = nameKey(name);
  const entry = (hosts ?? []).find((h) => nameKey(h.name) === key);
  return entry === undefined ? [] : [...entry.addresses];
}

/**
 * A resolver for `Iscsi`'s `resolveHostName` option that answers from the simulator's current
 * name table, as `dns.lookup(name, { all: true })` answers on a real node. An unknown name
 * rejects with `ENOTFOUND`, as a failed lookup does.
 */
export function iscsiHostNameResolver(sim: {
  state(): SimState;
}): (hostName: string) => Promise<readonly string[]> {
  return (hostName) => {
    const addresses = resolveIscsiHostName(sim.state().iscsi?.hosts, hostName);
    if (addresses.length > 0) return Promise.resolve(addresses);
    const error = new Error(`getaddrinfo ENOTFOUND ${hostName}`) as Error & { code: string };
    error.code = "ENOTFOUND";
    return Promise.reject(error);
  };
}
