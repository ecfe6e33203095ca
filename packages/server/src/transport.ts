import { chmodSync } from "node:fs";
import { createServer, type Server as NetServer } from "node:net";
import { join } from "node:path";
import { ServerCredentials, type Server } from "@grpc/grpc-js";
import { CsiProxyError } from "@csi-proxy/exec";
import { defaultEndpointSet, endpointKey, endpointName, type ServedApi } from "./endpoints.js";
import { unixPeer } from "./peer.js";
import type { PipeApi } from "./pipes/api.js";
import { servePipe, type PipeListener } from "./pipes/listen.js";
import { pipeSddl } from "./pipes/sddl.js";
import { secureSocketDir } from "./socket-dir.js";
import { bindRestricted, prepareSocket, removeSockets, socketPath } from "./sockets.js";
import { Connections } from "./wire/connections.js";
import { SocketWire } from "./wire/socket-wire.js";
import type { WireLimits } from "./wire-limits.js";

/** One endpoint's gRPC server, before it listens. */
export interface EndpointServer {
  readonly api: ServedApi;
  /** Its endpoint set (`--endpoint-set`); `default` is upstream's names. */
  readonly endpointSet: string;
  readonly server: Server;
}

/** Where the endpoints listen, and how to stop listening (sockets removed, pipes closed). */
export interface Listening {
  /** Path per endpoint, keyed `<group>-<version>` (default set) or `<set>/<group>-<version>`. */
  readonly endpoints: Readonly<Record<string, string>>;
  /** Accepts no more connections (a client reconnecting after a GOAWAY is turned away). */
  stop(): void;
  /** Ends every connection still open, stops listening, removes the sockets. */
  close(): Promise<void>;
}

/** Windows named pipes: extra SIDs for the DACL and, in tests, a fake of the Win32 calls. */
export interface NamedPipeOptions {
  /** SIDs admitted besides SYSTEM and Administrators (`--pipe-sid`); see `pipeSddl`. */
  readonly sids?: readonly string[];
  /** The Win32 pipe calls; a fake in tests, koffi's binding by default. */
  readonly api?: PipeApi;
}

/**
 * Listens on `path` and hands each connection to grpc-js through its guard (wire/guard.ts),
 * labelled with its peer's credentials (grpc-js's getPeer() reports the connection's
 * remoteAddress, which a Unix socket lacks), unless its endpoint set is at its limit.
 */
function bind(
  server: Server,
  path: string,
  endpointSet: string,
  limits: WireLimits,
  connections: Connections,
): Promise<NetServer> {
  const injector = server.createConnectionInjector(ServerCredentials.createInsecure());
  const listener = createServer((socket) => {
    const admission = connections.admit(endpointSet);
    if (admission === undefined) {
      socket.destroy();
      return;
    }
    const connection = new SocketWire(socket, unixPeer(socket), limits, admission.held);
    admission.attach(connection);
    connection.once("close", () => admission.release());
    injector.injectConnection(connection);
  });
  return new Promise((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(path, () => {
      listener.off("error", reject);
      resolve(listener);
    });
  });
}

function closeListener(listener: NetServer): Promise<void> {
  return new Promise((resolve) => listener.close(() => resolve()));
}

/**
 * Each endpoint on a Unix socket named as upstream's pipe, never more open than `mode`: the
 * default set's in `dir` when it is the only set, else each set's (`default` too) in
 * `dir/<set>`, so a deployment can mount one driver's folder into its pods at the path its
 * client dials, and no folder holds another set's.
 */
export async function listenOnSockets(
  servers: readonly EndpointServer[],
  dir: string | undefined,
  mode: number,
  limits: WireLimits,
): Promise<Listening> {
  if (dir === undefined || dir === "") {
    throw new CsiProxyError("A socket folder (--socket-dir) is needed off Windows.", {
      code: "INVALID_ARGUMENT",
    });
  }
  // Group-writable only when the group is meant to use the sockets (--socket-mode 0660).
  const group = (mode & 0o070) !== 0;
  const folder = secureSocketDir(dir, group);
  const folders = new Map<string, string>();
  // Beside named sets the default set gets a folder of its own too: no set's folder may hold
  // another's, or mounting it would expose every set (issue #33 item 8).
  const alone = servers.every(({ endpointSet }) => endpointSet === defaultEndpointSet);
  const folderOf = (set: string): string => {
    if (set === defaultEndpointSet && alone) return folder;
    let setFolder = folders.get(set);
    if (setFolder === undefined) {
      setFolder = secureSocketDir(join(folder, set), group);
      // The group connects to the sockets; it never writes the folder.
      chmodSync(setFolder, group ? 0o750 : 0o700);
      folders.set(set, setFolder);
    }
    return setFolder;
  };
  const endpoints: Record<string, string> = {};
  const paths: string[] = [];
  const connections = new Connections(limits);
  let listeners: NetServer[] = [];
  try {
    for (const { api, endpointSet } of servers) {
      const path = socketPath(folderOf(endpointSet), api.endpoint);
      await prepareSocket(path);
      endpoints[endpointKey(endpointSet, api)] = path;
      paths.push(path);
    }
    listeners = await bindRestricted(paths, mode, async () => {
      const bound = await Promise.allSettled(
        servers.map(({ server, endpointSet }, i) =>
          bind(server, paths[i] ?? "", endpointSet, limits, connections),
        ),
      );
      const ok = bound.flatMap((b) => (b.status === "fulfilled" ? [b.value] : []));
      const failed = bound.find((b) => b.status === "rejected");
      if (failed === undefined) return ok;
      // The ones that did bind are closed too when one did not.
      await Promise.all(ok.map(closeListener));
      throw failed.reason;
    });
  } catch (error) {
    await Promise.all(listeners.map(closeListener));
    removeSockets(paths);
    throw error;
  }
  let closed: Promise<unknown> | undefined;
  const stop = () => {
    connections.stop();
    // Closed at once, awaited in close(): the callback waits for every connection to end.
    closed ??= Promise.all(listeners.map(closeListener));
  };
  return {
    endpoints,
    stop,
    close: async () => {
      stop();
      connections.dropAll();
      await closed;
      removeSockets(paths);
    },
  };
}

/**
 * Each endpoint on the named pipe upstream's clients dial, `\\.\pipe\csi-proxy-<group>-<version>`,
 * with a DACL of SYSTEM and Administrators (plus `sids`): Node's own pipes would get the default
 * DACL, which lets every local user read (packages/server/docs/named-pipes.md).
 */
export async function listenOnPipes(
  servers: readonly EndpointServer[],
  options: NamedPipeOptions,
  limits: WireLimits,
): Promise<Listening> {
  const sddl = pipeSddl(options.sids ?? []);
  const endpoints: Record<string, string> = {};
  const listeners: PipeListener[] = [];
  const connections = new Connections(limits);
  const stop = () => {
    connections.stop();
    for (const listener of listeners) listener.stop();
  };
  const close = async () => {
    stop();
    connections.dropAll();
    await Promise.all(listeners.map((listener) => listener.close()));
  };
  try {
    for (const { api, endpointSet, server } of servers) {
      const name = `\\\\.\\pipe\\${endpointName(endpointSet, api)}`;
      listeners.push(
        await servePipe(server, name, {
          sddl,
          limits,
          connections,
          endpointSet,
          ...(options.api ? { api: options.api } : {}),
        }),
      );
      endpoints[endpointKey(endpointSet, api)] = name;
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { endpoints, stop, close };
}
