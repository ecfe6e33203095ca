import { Duplex } from "node:stream";
import { unlimitedHeld, type Droppable, type HeldBudget } from "../wire/connections.js";
import { ConnectionGuard, type GuardedTransport } from "../wire/guard.js";
import type { WireLimits } from "../wire-limits.js";
import { isPeerGone, type PipeApi, type PipeHandle } from "./api.js";

/** Bytes asked of one ReadFile; an HTTP/2 frame header plus a default 16 KiB frame fits. */
const READ_SIZE = 64 * 1024;

/**
 * One connected pipe instance as a Node stream, for `injectConnection`.
 *
 * A read is always pending while the consumer wants data and writes go out one at a time beside
 * it (overlapped I/O), so an HTTP/2 peer waiting on our write is never stuck behind our read.
 * With `limits`, every byte passes a {@link ConnectionGuard} both ways, as on a Unix socket.
 */
export class PipeDuplex extends Duplex implements GuardedTransport, Droppable {
  readonly #api: PipeApi;
  readonly #pipe: PipeHandle;
  readonly #guard: ConnectionGuard | undefined;
  #reading = false;
  #released = false;
  // Writes go out in order, the guard's own frames among the server's.
  #writes: Promise<void> = Promise.resolve();
  /**
   * The client process (`pid=…`), read once at connect: grpc-js's `getPeer()` reports a
   * connection's `remoteAddress`, which is how a call learns who is at the other end.
   */
  readonly remoteAddress: string;

  constructor(api: PipeApi, pipe: PipeHandle, limits?: WireLimits, held?: HeldBudget) {
    // Pipes have no half-close: once either side is over, the whole instance is.
    super({ allowHalfOpen: false });
    this.#api = api;
    this.#pipe = pipe;
    let pid: number | undefined;
    try {
      pid = api.clientProcessId(pipe);
    } catch {
      pid = undefined;
    }
    this.remoteAddress = pid === undefined ? "unknown" : `pid=${pid}`;
    this.#guard =
      limits === undefined
        ? undefined
        : new ConnectionGuard(this, limits, this.remoteAddress, held ?? unlimitedHeld);
  }

  override _read(): void {
    if (this.#reading || this.#released) return;
    this.#reading = true;
    void this.#readLoop();
  }

  async #readLoop(): Promise<void> {
    while (!this.#released) {
      let chunk: Buffer;
      try {
        chunk = await this.#api.read(this.#pipe, READ_SIZE);
      } catch (error) {
        this.#reading = false;
        if (this.#isReleased()) return;
        // The client closing its end is how a pipe conversation ends, not a failure.
        if (isPeerGone(error)) this.push(null);
        else this.destroy(error as Error);
        return;
      }
      if (this.#isReleased()) break;
      if (chunk.length > 0 && !this.#pushAll(this.#guard?.fromClient(chunk) ?? [chunk])) break;
    }
    this.#reading = false;
  }

  #pushAll(parts: readonly Buffer[]): boolean {
    let more = true;
    for (const part of parts) more = this.push(part) && more;
    return more;
  }

  toServer(data: Buffer): void {
    if (!this.#released) this.push(data);
  }

  toClient(data: Buffer): void {
    this.#enqueue(data).catch(() => this.destroy());
  }

  finish(): void {
    // Once what was written has gone out; no DisconnectNamedPipe, so the client can read it.
    void this.#writes.then(() => {
      this.#release(false);
      this.destroy();
    });
  }

  hangUp(): void {
    this.destroy();
  }

  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    this.#guard?.fromServer(chunk);
    this.#enqueue(chunk).then(
      () => callback(),
      (error: unknown) => callback(error as Error),
    );
    this.#guard?.afterServerWrite();
  }

  #enqueue(chunk: Buffer): Promise<void> {
    const written = this.#writes.then(() => this.#writeAll(chunk));
    this.#writes = written.catch(() => undefined);
    return written;
  }

  async #writeAll(chunk: Buffer): Promise<void> {
    let rest = chunk;
    while (rest.length > 0) {
      const written = await this.#api.write(this.#pipe, rest);
      // A blocking-mode pipe writes everything; a short count without progress would spin.
      if (written <= 0) throw new Error(`WriteFile wrote ${written} of ${rest.length} bytes`);
      rest = rest.subarray(written);
    }
  }

  override _final(callback: (error?: Error | null) => void): void {
    // No DisconnectNamedPipe: it would discard what the client has not read yet (the GOAWAY).
    void this.#writes.then(() => {
      this.#release(false);
      this.push(null);
      callback();
    });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#guard?.closed();
    this.#release(true);
    callback(error);
  }

  // A method, not the field, so the check after an await is not narrowed away.
  #isReleased(): boolean {
    return this.#released;
  }

  /** Cancels pending I/O and closes the instance, once; `disconnect` also drops the client. */
  #release(disconnect: boolean): void {
    if (this.#released) return;
    this.#released = true;
    const steps = [
      () => this.#api.cancel(this.#pipe),
      ...(disconnect ? [() => this.#api.disconnect(this.#pipe)] : []),
      () => this.#api.close(this.#pipe),
    ];
    // Each step runs even if one before it fails: a handle must not leak because a cancel did.
    for (const step of steps) {
      try {
        step();
      } catch {
        /* the handle is being discarded; nothing useful to report */
      }
    }
  }
}
