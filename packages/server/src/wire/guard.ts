import type { WireLimits } from "../wire-limits.js";
import { ClientFrames } from "./client-frames.js";
import type { HeldBudget } from "./connections.js";
import { ErrorCode, Flag, FrameType, goAway, rstStream, type FrameHeader } from "./frames.js";
import { unindexedField } from "./hpack.js";
import { peerHeader, peerValue } from "./peer-header.js";
import { ServerFrames } from "./server-frames.js";

/** What a guard needs of the connection it watches. */
export interface GuardedTransport {
  /** Passes bytes on to the HTTP/2 server reading this connection. */
  toServer(data: Buffer): void;
  /** Writes bytes to the client, after everything the server wrote before. */
  toClient(data: Buffer): void;
  /**
   * Ends the connection: nothing more reaches the server, what was written goes out, then the
   * connection closes (dropped after a short linger if the client keeps it open).
   */
  finish(): void;
  /** Drops the connection now. */
  hangUp(): void;
}

/** grpc-go's maxPingStrikes: the third strike ends the connection. */
const maxPingStrikes = 2;

interface Stream {
  /** Whether the client's half is done (END_STREAM received). */
  complete: boolean;
  readonly openedAt: number;
  /** Counted in the endpoint set's held requests (not whole past the grace period). */
  held: boolean;
}

/**
 * Watches one connection both ways at the HTTP/2 frame level, before anything is authenticated:
 * the client preface must come within the handshake timeout; a request not whole after the
 * grace period is held against its endpoint set's budget (refused when that is spent) and reset
 * at the request timeout; pings are limited as grpc-go's server limits them; a connection the
 * server is closing closes within the grace period even if the client never does. Requests
 * grpc-go before 1.57 sends are made acceptable on the way ({@link ClientFrames}).
 */
export class ConnectionGuard {
  readonly #transport: GuardedTransport;
  readonly #limits: WireLimits;
  readonly #held: HeldBudget;
  readonly #client: ClientFrames;
  readonly #server = new ServerFrames((header) => this.#fromServerFrame(header));
  readonly #streams = new Map<number, Stream>();
  #lastClientStream = 0;
  #handshake: NodeJS.Timeout | undefined;
  #requestTimer: NodeJS.Timeout | undefined;
  #closeTimer: NodeJS.Timeout | undefined;
  #strikes = 0;
  #lastPingAt: number | undefined;
  #resetStrikes = false;
  // Frames of the guard's own waiting for the server's output to reach a frame boundary.
  #toClient: Buffer[] = [];
  #finishWhenFlushed = false;
  #serverClosing = false;
  #sentGoAway = false;
  #done = false;

  /**
   * `peer`: who the transport says is at the other end, added to every request ({@link peerHeader});
   * `held`: the endpoint set's budget of held requests.
   */
  constructor(transport: GuardedTransport, limits: WireLimits, peer: string, held: HeldBudget) {
    this.#transport = transport;
    this.#limits = limits;
    this.#held = held;
    this.#client = new ClientFrames(
      (header) => this.#fromClientFrame(header),
      unindexedField(peerHeader, peerValue(peer)),
    );
    this.#handshake = setTimeout(() => {
      this.#handshake = undefined;
      this.#end("drop");
    }, limits.handshakeTimeoutMs);
    this.#handshake.unref();
  }

  /** Whether a request's `:authority` had to be rewritten (grpc-go before 1.57). */
  get rewroteAuthority(): boolean {
    return this.#client.rewriting;
  }

  /** Reads what the client sent; returns what goes on to the server. */
  fromClient(chunk: Buffer): Buffer[] {
    if (this.#done || this.#sentGoAway) return [];
    const out = this.#client.read(chunk);
    this.#armRequestTimer();
    return out;
  }

  /** Reads what the server is about to write to the client. */
  fromServer(chunk: Uint8Array): void {
    this.#server.read(chunk);
  }

  /** Called once the server's bytes are handed on: the guard's own frames may follow them. */
  afterServerWrite(): void {
    if (!this.#server.atBoundary) return;
    const frames = this.#toClient;
    this.#toClient = [];
    for (const frame of frames) this.#transport.toClient(frame);
    if (this.#finishWhenFlushed) this.#end("finish");
  }

  /** The connection is gone: timers stop. */
  closed(): void {
    if (!this.#done) for (const streamId of [...this.#streams.keys()]) this.#forget(streamId);
    this.#done = true;
    for (const timer of [this.#handshake, this.#requestTimer, this.#closeTimer])
      clearTimeout(timer);
    this.#handshake = this.#requestTimer = this.#closeTimer = undefined;
  }

  #end(how: "finish" | "drop"): void {
    if (this.#done) return;
    this.closed();
    if (how === "finish") this.#transport.finish();
    else this.#transport.hangUp();
  }

  #fromClientFrame(header: FrameHeader): void {
    if (this.#handshake !== undefined) {
      clearTimeout(this.#handshake);
      this.#handshake = undefined;
    }
    const { type, flags, streamId } = header;
    if (type === FrameType.HEADERS) {
      if (streamId > this.#lastClientStream) {
        this.#lastClientStream = streamId;
        this.#streams.set(streamId, {
          complete: (flags & Flag.END_STREAM) !== 0,
          openedAt: Date.now(),
          held: false,
        });
      } else if (flags & Flag.END_STREAM) this.#complete(streamId);
    } else if (type === FrameType.DATA) {
      if (flags & Flag.END_STREAM) this.#complete(streamId);
    } else if (type === FrameType.RST_STREAM) {
      this.#forget(streamId);
    } else if (type === FrameType.PING && (flags & Flag.ACK) === 0) {
      this.#ping();
    }
  }

  #fromServerFrame(header: FrameHeader): void {
    const { type, flags, streamId } = header;
    if (type === FrameType.HEADERS || type === FrameType.DATA) {
      // As grpc-go: pings that follow the server's output (BDP pings) are no strike.
      this.#resetStrikes = true;
      if (flags & Flag.END_STREAM) this.#closeStream(streamId);
    } else if (type === FrameType.RST_STREAM) {
      this.#closeStream(streamId);
    } else if (type === FrameType.GOAWAY && !this.#serverClosing) {
      this.#serverClosing = true;
      this.#closeTimer = setTimeout(() => this.#end("drop"), this.#limits.closeGraceMs);
      this.#closeTimer.unref();
      this.#finishIfDrained();
    }
  }

  #complete(streamId: number): void {
    const stream = this.#streams.get(streamId);
    if (stream === undefined) return;
    stream.complete = true;
    if (stream.held) {
      stream.held = false;
      this.#held.give();
    }
  }

  #closeStream(streamId: number): void {
    this.#forget(streamId);
    this.#finishIfDrained();
  }

  #forget(streamId: number): void {
    if (this.#streams.get(streamId)?.held === true) this.#held.give();
    this.#streams.delete(streamId);
  }

  // The server said GOAWAY and no call is left: the client may never close, so it is closed.
  #finishIfDrained(): void {
    if (this.#serverClosing && this.#streams.size === 0) this.#finishAfterFlush();
  }

  #finishAfterFlush(): void {
    this.#finishWhenFlushed = true;
    // Also when the server writes nothing more: once the current write has been handed on.
    setImmediate(() => {
      if (this.#server.atBoundary) this.afterServerWrite();
    });
  }

  #ping(): void {
    const now = Date.now();
    if (this.#resetStrikes) {
      this.#resetStrikes = false;
      this.#strikes = 0;
    } else if (
      this.#lastPingAt !== undefined &&
      now - this.#lastPingAt < this.#limits.minPingIntervalMs
    ) {
      this.#strikes += 1;
    }
    this.#lastPingAt = now;
    if (this.#strikes > maxPingStrikes && !this.#sentGoAway) {
      this.#sentGoAway = true;
      this.#sendToClient(
        goAway(this.#lastClientStream, ErrorCode.ENHANCE_YOUR_CALM, "too_many_pings"),
      );
      this.#finishAfterFlush();
    }
  }

  #sendToClient(frame: Buffer): void {
    if (this.#server.atBoundary && this.#toClient.length === 0) this.#transport.toClient(frame);
    else this.#toClient.push(frame);
  }

  #armRequestTimer(): void {
    if (this.#requestTimer !== undefined || this.#done) return;
    // The next moment an unfinished request is due: to be held, or to be reset.
    let due: number | undefined;
    for (const stream of this.#streams.values()) {
      if (stream.complete) continue;
      const at =
        stream.openedAt +
        (stream.held ? this.#limits.requestTimeoutMs : this.#limits.requestGraceMs);
      if (due === undefined || at < due) due = at;
    }
    if (due === undefined) return;
    this.#requestTimer = setTimeout(
      () => {
        // After the I/O already waiting has been read: a request whose rest has arrived is whole.
        setImmediate(() => {
          this.#requestTimer = undefined;
          this.#checkRequests();
          this.#armRequestTimer();
        });
      },
      Math.max(0, due - Date.now()),
    );
    this.#requestTimer.unref();
  }

  #checkRequests(): void {
    if (this.#done) return;
    const now = Date.now();
    const resets: [number, number][] = [];
    for (const [streamId, stream] of this.#streams) {
      if (stream.complete) continue;
      const age = now - stream.openedAt;
      if (age >= this.#limits.requestTimeoutMs) resets.push([streamId, ErrorCode.CANCEL]);
      else if (!stream.held && age >= this.#limits.requestGraceMs) {
        // The set holds all it may: this one is refused, unprocessed, as a client may retry it.
        if (this.#held.take()) stream.held = true;
        else resets.push([streamId, ErrorCode.REFUSED_STREAM]);
      }
    }
    if (resets.length === 0) return;
    // A header block left unfinished holds the whole connection: nothing can go in before it ends.
    if (this.#client.inHeaderBlock) {
      this.#end("drop");
      return;
    }
    for (const [streamId, code] of resets) {
      this.#forget(streamId);
      // The server drops the call it has not started; the client learns its stream is gone.
      for (const frame of this.#client.inject(rstStream(streamId, ErrorCode.CANCEL)))
        this.#transport.toServer(frame);
      this.#sendToClient(rstStream(streamId, code));
    }
  }
}
