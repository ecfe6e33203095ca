import { ServerCredentials, type Server } from "@grpc/grpc-js";
import { CsiProxyError } from "@csi-proxy/exec";
import type { ServedApi } from "./endpoints.js";
import type { PipeApi } from "./pipes/api.js";
import { servePipe, type PipeListener } from "./pipes/listen.js";
import { pipeSddl } from "./pipes/sddl.js";
import { secureSocketDir } from "./socket-dir.js";
import { bindRestricted, prepareSocket, removeSockets, socketPath } from "./sockets.js";

/** One endpoint's gRPC server, before it listens. */
export interface EndpointServer {
  readonly api: ServedApi;
  readonly server: Server;
}

/** Where the endpoints listen, and how to stop listening (sockets removed, pipes closed). */
export interface Listening {
  /** Path per endpoint, keyed `<group>-<version>`. */
  readonly endpoints: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** Windows named pipes: extra SIDs for the DACL and, in tests, a fake of the Win32 calls. */
export interface NamedPipeOptions {
  /** SIDs admitted besides SYSTEM and Administrators (`--pipe-sid`); see `pipeSddl`. */
  readonly sids?: readonly string[];
  /** The Win32 pipe calls; a fake in tests, koffi's binding by default. */
  readonly api?: PipeApi;
}

const key = (api: ServedApi) => `${api.group}-${api.version}`;

function bind(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.bindAsync(`unix:${path}`, ServerCredentials.createInsecure(), (error) => {
      if (error) reject(error);
      else resolve();
    });
  });
}

/** Each endpoint on a Unix socket named as upstream's pipe, never more open than `mode`. */
export async function listenOnSockets(
  servers: readonly EndpointServer[],
  dir: string | undefined,
  mode: number,
): Promise<Listening> {
  if (dir === undefined || dir === "") {
    throw new CsiProxyError("A socket folder (--socket-dir) is needed off Windows.", {
      code: "INVALID_ARGUMENT",
    });
  }
  // Group-writable only when the group is meant to use the sockets (--socket-mode 0660).
  const folder = secureSocketDir(dir, (mode & 0o070) !== 0);
  const endpoints: Record<string, string> = {};
  const paths: string[] = [];
  try {
    for (const { api } of servers) {
      const path = socketPath(folder, api.endpoint);
      await prepareSocket(path);
      endpoints[key(api)] = path;
      paths.push(path);
    }
    await bindRestricted(paths, mode, () =>
      Promise.all(servers.map(({ server }, i) => bind(server, paths[i] ?? ""))),
    );
  } catch (error) {
    removeSockets(paths);
    throw error;
  }
  return { endpoints, close: () => Promise.resolve(removeSockets(paths)) };
}

/**
 * Each endpoint on the named pipe upstream's clients dial, `\\.\pipe\csi-proxy-<group>-<version>`,
 * with a DACL of SYSTEM and Administrators (plus `sids`): Node's own pipes would get the default
 * DACL, which lets every local user read (packages/server/docs/named-pipes.md).
 */
export async function listenOnPipes(
  servers: readonly EndpointServer[],
  options: NamedPipeOptions,
): Promise<Listening> {
  const sddl = pipeSddl(options.sids ?? []);
  const endpoints: Record<string, string> = {};
  const listeners: PipeListener[] = [];
  const close = async () => {
    await Promise.all(listeners.map((listener) => listener.close()));
  };
  try {
    for (const { api, server } of servers) {
      const name = `\\\\.\\pipe\\${api.endpoint}`;
      listeners.push(
        await servePipe(server, name, { sddl, ...(options.api ? { api: options.api } : {}) }),
      );
      endpoints[key(api)] = name;
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { endpoints, close };
}
