import type { Socket } from "node:net";
import { Duplex } from "node:stream";
import type { WireLimits } from "../wire-limits.js";
import type { Droppable, HeldBudget } from "./connections.js";
import { ConnectionGuard, type GuardedTransport } from "./guard.js";

/** How long a connection being finished may stay open for the client to read its last bytes. */
export const lingerMs = 1_000;

/**
 * An accepted Unix socket as grpc-js sees it: every byte passes its {@link ConnectionGuard} on
 * the way in and out. (A Duplex of our own, so the HTTP/2 session reads it through Node's
 * JSStreamSocket rather than the socket's native handle: the cost is measured in BENCHMARKS.md.)
 */
export class SocketWire extends Duplex implements GuardedTransport, Droppable {
  /** The peer's credentials, which grpc-js reports as the call's peer (`getPeer()`). */
  readonly remoteAddress: string;
  readonly #socket: Socket;
  readonly #guard: ConnectionGuard;
  #finishing = false;

  constructor(socket: Socket, remoteAddress: string, limits: WireLimits, held: HeldBudget) {
    super({ allowHalfOpen: false });
    this.remoteAddress = remoteAddress;
    this.#socket = socket;
    this.#guard = new ConnectionGuard(this, limits, remoteAddress, held);
    socket.on("data", (chunk: Buffer) => {
      let more = true;
      for (const part of this.#guard.fromClient(chunk)) more = this.push(part) && more;
      if (!more) socket.pause();
    });
    socket.once("end", () => this.push(null));
    // A reset by the client ends the connection; the session learns it from the close.
    socket.once("error", () => this.destroy());
    socket.once("close", () => this.destroy());
  }

  toServer(data: Buffer): void {
    if (!this.destroyed) this.push(data);
  }

  toClient(data: Buffer): void {
    this.#socket.write(data);
  }

  finish(): void {
    if (this.#finishing) return;
    this.#finishing = true;
    this.#socket.end();
    setTimeout(() => this.#socket.destroy(), lingerMs).unref();
    this.destroy();
  }

  hangUp(): void {
    this.destroy();
  }

  override _read(): void {
    this.#socket.resume();
  }

  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    this.#guard.fromServer(chunk);
    this.#socket.write(chunk, () => callback());
    this.#guard.afterServerWrite();
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.#socket.cork();
    let last = chunks.length;
    for (const { chunk } of chunks) {
      this.#guard.fromServer(chunk);
      this.#socket.write(chunk, () => {
        last -= 1;
        if (last === 0) callback();
      });
    }
    this.#socket.uncork();
    this.#guard.afterServerWrite();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#socket.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#guard.closed();
    if (!this.#finishing) this.#socket.destroy();
    callback(error);
  }
}
