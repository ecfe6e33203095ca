import { chmodSync, lstatSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { CsiProxyError } from "@csi-proxy/exec";

/** The socket of an endpoint: `<dir>/csi-proxy-<group>-<version>`, named as upstream's pipe. */
export function socketPath(dir: string, endpoint: string): string {
  return join(dir, endpoint);
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Clears a socket left by a server that died; refuses a socket another server still answers on,
 * and anything that is not a socket. The folder is checked first (`secureSocketDir`).
 */
export async function prepareSocket(path: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch {
    return;
  }
  if (!isSocket) {
    throw new CsiProxyError(`${path} exists and is not a socket; not replacing it.`, {
      code: "ALREADY_EXISTS",
    });
  }
  if (await answers(path)) {
    throw new CsiProxyError(`Another server is listening on ${path}.`, { code: "ALREADY_EXISTS" });
  }
  rmSync(path, { force: true });
}

/**
 * Runs `bind` with a umask that creates sockets owner-only, then sets the mode asked for, so no
 * socket is ever more open than `mode`, not even between its creation and the chmod.
 */
export async function bindRestricted<T>(
  paths: readonly string[],
  mode: number,
  bind: () => Promise<T>,
): Promise<T> {
  const previous = process.umask(0o177);
  let bound: T;
  try {
    bound = await bind();
  } finally {
    process.umask(previous);
  }
  for (const path of paths) chmodSync(path, mode);
  return bound;
}

/** Removes the sockets (a missing one is fine). */
export function removeSockets(paths: readonly string[]): void {
  for (const path of paths) rmSync(path, { force: true });
}
