import { createRequire } from "node:module";
import type { Socket } from "node:net";
import type { Koffi } from "./koffi.js";

/** A socket's peer as the kernel reports it, or undefined where this platform cannot say. */
type PeerOf = (fd: number) => string | undefined;

// Linux's SOL_SOCKET and SO_PEERCRED (asm-generic/socket.h); other architectures number them apart.
const SOL_SOCKET = 1;
const SO_PEERCRED = 17;
const linuxArchitectures = new Set(["x64", "arm64"]);

let peerOf: PeerOf | null | undefined;

function bindPeerCred(): PeerOf | null {
  if (process.platform !== "linux" || !linuxArchitectures.has(process.arch)) return null;
  try {
    const koffi = createRequire(import.meta.url)("koffi") as Koffi;
    const libc = koffi.load("libc.so.6");
    const ucred = koffi.struct("csi_proxy_ucred", { pid: "int32", uid: "uint32", gid: "uint32" });
    const getsockopt = libc.func("getsockopt", "int", [
      "int",
      "int",
      "int",
      koffi.out(koffi.pointer(ucred)),
      koffi.inout(koffi.pointer("uint32")),
    ]) as (fd: number, level: number, name: number, out: object, length: number[]) => number;
    return (fd) => {
      const cred = {} as { pid?: number; uid?: number; gid?: number };
      if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, cred, [koffi.sizeof(ucred)]) !== 0)
        return undefined;
      return `uid=${String(cred.uid)},gid=${String(cred.gid)},pid=${String(cred.pid)}`;
    };
  } catch {
    // No koffi or no glibc (musl): the audit log says `unknown` rather than the server failing.
    return null;
  }
}

/**
 * Who is at the other end of an accepted Unix socket: `uid=…,gid=…,pid=…` from SO_PEERCRED
 * (the credentials of the process that connected, as of connect(2)), or `unknown` off Linux.
 */
export function unixPeer(socket: Socket): string {
  peerOf ??= bindPeerCred();
  // Node has no API for SO_PEERCRED; libuv's handle holds the descriptor on Unix.
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  if (peerOf === null || typeof fd !== "number" || fd < 0) return "unknown";
  return peerOf(fd) ?? "unknown";
}
