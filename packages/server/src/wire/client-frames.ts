import { acceptedBlock } from "./authority.js";
import {
  clientPreface,
  continuationFrames,
  Flag,
  FrameType,
  headerFrames,
  headerLength,
  maxFramePayload,
  readHeader,
  type FrameHeader,
} from "./frames.js";
import { HpackMirror } from "./hpack.js";

/** The largest header block held for a rewrite; a larger one passes as it is. */
const maxHeldBlock = 64 * 1024;

/** A header block being held until its END_HEADERS, in case its `:authority` needs a rewrite. */
interface HeldBlock {
  readonly streamId: number;
  readonly flags: number;
  readonly priority: Uint8Array | undefined;
  readonly frames: Buffer[];
  readonly fragments: Uint8Array[];
  size: number;
}

/**
 * The client's side of one HTTP/2 connection, read on its way to the server: every frame's header
 * is reported, and a request whose `:authority` nghttp2 would refuse (grpc-go before 1.57 sends
 * the dial target, `\\.\\pipe\\csi-proxy-…` or a socket path, unencoded) is rewritten so it is
 * served. HPACK is stateful, so the client's dynamic table is followed from the first block;
 * once a client has sent an accepted `:authority` and none was rewritten, it is not followed any
 * more (one HTTP/2 connection has one authority). With a `tag` (an encoded field that changes no
 * table), every header block gets it appended last.
 */
export class ClientFrames {
  readonly #onFrame: (header: FrameHeader) => void;
  readonly #tag: Buffer | undefined;
  #prefaceAt = 0;
  #opaque = false;
  // Payload bytes of the current frame still to pass.
  #skip = 0;
  // Bytes held back: an incomplete frame header, or a header frame not yet whole.
  #carry: Buffer | undefined;
  #mirror: HpackMirror | undefined = new HpackMirror();
  #rewriting = false;
  #held: HeldBlock | undefined;
  // Inside a header block (HEADERS without END_HEADERS seen): nothing may be put in between.
  #inBlock = false;
  #pending: Buffer[] = [];
  // Held frames let go of when the table could not be followed, to pass before the next frame.
  #released: Buffer[] = [];

  /** `onFrame` hears of every frame the client sends, once its header is read. */
  constructor(onFrame: (header: FrameHeader) => void, tag?: Buffer) {
    this.#onFrame = onFrame;
    this.#tag = tag;
  }

  /** Whether the client preface has been read. */
  get prefaceRead(): boolean {
    return this.#prefaceAt === clientPreface.length;
  }

  /** Whether a header block has begun and not ended: nothing can be put in before it ends. */
  get inHeaderBlock(): boolean {
    return this.#inBlock;
  }

  /** Whether a `:authority` was rewritten on this connection. */
  get rewriting(): boolean {
    return this.#rewriting;
  }

  /**
   * Queues frames for the server (an RST_STREAM) at the next frame boundary outside a header
   * block; returns them at once, for the caller to pass on, when the stream is at one now.
   */
  inject(frames: Buffer): Buffer[] {
    this.#pending.push(frames);
    return this.#atBoundary() ? this.#takePending() : [];
  }

  /** What of `chunk` (and of what was held) goes to the server now, in order. */
  read(chunk: Buffer): Buffer[] {
    if (this.#opaque) return [chunk];
    const out: Buffer[] = [];
    let data = chunk;
    if (this.#carry !== undefined) {
      data = Buffer.concat([this.#carry, chunk]);
      this.#carry = undefined;
    }
    let at = 0;
    let from = 0;
    const pass = (end: number) => {
      if (end > from) out.push(data.subarray(from, end));
      from = end;
    };
    if (!this.prefaceRead) {
      const n = Math.min(clientPreface.length - this.#prefaceAt, data.length);
      const expected = clientPreface.subarray(this.#prefaceAt, this.#prefaceAt + n);
      if (!data.subarray(0, n).equals(expected)) {
        // Not HTTP/2 with prior knowledge: nghttp2 will refuse it; pass it and stop reading.
        this.#opaque = true;
        return [data];
      }
      this.#prefaceAt += n;
      at = n;
    }
    while (at < data.length) {
      if (this.#skip > 0) {
        const n = Math.min(this.#skip, data.length - at);
        at += n;
        this.#skip -= n;
        if (this.#skip === 0) {
          pass(at);
          out.push(...this.#takePendingIfFree());
        }
        continue;
      }
      if (data.length - at < headerLength) break;
      const header = readHeader(data, at);
      const hold = this.#shouldHold(header);
      if (this.#released.length > 0) {
        pass(at);
        out.push(...this.#released);
        this.#released = [];
      }
      if (hold) {
        // The whole frame is needed before anything of it goes on.
        if (data.length - at < headerLength + header.length) break;
        pass(at);
        const end = at + headerLength + header.length;
        out.push(...this.#hold(header, data.subarray(at, end)));
        at = end;
        from = end;
        out.push(...this.#takePendingIfFree());
        continue;
      }
      this.#track(header);
      this.#onFrame(header);
      at += headerLength;
      this.#skip = header.length;
      if (this.#skip === 0) {
        pass(at);
        out.push(...this.#takePendingIfFree());
      }
    }
    pass(Math.min(at, data.length));
    if (at < data.length) this.#carry = data.subarray(at);
    return out;
  }

  #atBoundary(): boolean {
    return this.#skip === 0 && !this.#inBlock && this.prefaceRead && !this.#opaque;
  }

  #takePending(): Buffer[] {
    const pending = this.#pending;
    this.#pending = [];
    return pending;
  }

  #takePendingIfFree(): Buffer[] {
    return this.#pending.length > 0 && this.#skip === 0 && !this.#inBlock
      ? this.#takePending()
      : [];
  }

  #track(header: FrameHeader): void {
    if (header.type === FrameType.HEADERS) this.#inBlock = (header.flags & Flag.END_HEADERS) === 0;
    else if (header.type === FrameType.CONTINUATION && header.flags & Flag.END_HEADERS)
      this.#inBlock = false;
  }

  #shouldHold(header: FrameHeader): boolean {
    if (this.#mirror === undefined) {
      // Only the frame that ends a block is needed whole, for the tag to go at its end.
      return (
        this.#tag !== undefined &&
        (header.type === FrameType.HEADERS || header.type === FrameType.CONTINUATION) &&
        (header.flags & Flag.END_HEADERS) !== 0 &&
        header.length <= maxFramePayload
      );
    }
    const held = this.#held;
    if (header.type !== FrameType.HEADERS && header.type !== FrameType.CONTINUATION) {
      if (held !== undefined) this.#giveUp();
      return false;
    }
    // A frame over the size the server allows, or a block over the cap: nghttp2 will end the
    // connection or the client is not a gRPC client; the table cannot be followed past it.
    if (header.length > maxFramePayload || (held?.size ?? 0) + header.length > maxHeldBlock) {
      this.#giveUp();
      return false;
    }
    return true;
  }

  /** Stops following the table; whatever is held passes as it is, first. */
  #giveUp(): void {
    this.#mirror = undefined;
    this.#released = this.#held?.frames ?? [];
    this.#held = undefined;
  }

  /** Holds one HEADERS or CONTINUATION frame; at END_HEADERS returns the block's frames. */
  #hold(header: FrameHeader, bytes: Buffer): Buffer[] {
    this.#track(header);
    this.#onFrame(header);
    const payload = bytes.subarray(headerLength);
    if (this.#mirror === undefined) return this.#tagged(header, bytes);
    let held = this.#held;
    if (header.type === FrameType.HEADERS) {
      const parsed = headersPayload(header.flags, payload);
      if (held !== undefined || parsed === undefined) return this.#passAsIs(bytes);
      held = {
        streamId: header.streamId,
        flags: header.flags,
        priority: parsed.priority,
        frames: [],
        fragments: [],
        size: 0,
      };
      this.#held = held;
      held.fragments.push(parsed.fragment);
    } else {
      if (held === undefined || header.streamId !== held.streamId) return this.#passAsIs(bytes);
      held.fragments.push(payload);
    }
    held.frames.push(bytes);
    held.size += bytes.length;
    if ((header.flags & Flag.END_HEADERS) === 0) return [];
    this.#held = undefined;
    return this.#release(held);
  }

  /** Something the table cannot follow (a malformed frame): nghttp2 will refuse it. */
  #passAsIs(bytes: Buffer): Buffer[] {
    const held = this.#held?.frames ?? [];
    this.#held = undefined;
    this.#mirror = undefined;
    return [...held, bytes];
  }

  #release(held: HeldBlock): Buffer[] {
    const mirror = this.#mirror;
    if (mirror === undefined) return held.frames;
    const block =
      held.fragments.length === 1
        ? (held.fragments[0] ?? new Uint8Array(0))
        : Buffer.concat(held.fragments);
    const scan = mirror.decode(block);
    // Not HPACK: nghttp2 fails the connection on it (COMPRESSION_ERROR), so nothing of it is served.
    if (scan === undefined) {
      this.#mirror = undefined;
      return held.frames;
    }
    const rewritten = acceptedBlock(block, scan.literals);
    if (rewritten !== undefined) this.#rewriting = true;
    // An accepted authority from a client never rewritten: its later blocks need no reading.
    else if (scan.hasAuthority && !this.#rewriting) this.#mirror = undefined;
    if (rewritten === undefined && this.#tag === undefined) return held.frames;
    const final = rewritten ?? block;
    const tagged = this.#tag === undefined ? final : Buffer.concat([final, this.#tag]);
    return headerFrames(held.streamId, held.flags, held.priority, tagged);
  }

  /** The frame that ends a header block, with the tag appended to its fragment. */
  #tagged(header: FrameHeader, bytes: Buffer): Buffer[] {
    const tag = this.#tag;
    if (tag === undefined) return [bytes];
    const payload = bytes.subarray(headerLength);
    if (header.type === FrameType.CONTINUATION)
      return continuationFrames(header.streamId, Buffer.concat([payload, tag]));
    const parsed = headersPayload(header.flags, payload);
    if (parsed === undefined) return [bytes];
    const block = Buffer.concat([parsed.fragment, tag]);
    return headerFrames(header.streamId, header.flags, parsed.priority, block);
  }
}

/** A HEADERS payload without its padding and priority fields (RFC 9113 §6.2). */
function headersPayload(
  flags: number,
  payload: Buffer,
): { fragment: Uint8Array; priority: Uint8Array | undefined } | undefined {
  let start = 0;
  let end = payload.length;
  if (flags & Flag.PADDED) {
    const padding = payload[0] ?? 0;
    start = 1;
    end -= padding;
  }
  let priority: Uint8Array | undefined;
  if (flags & Flag.PRIORITY) {
    priority = payload.subarray(start, start + 5);
    start += 5;
  }
  if (end < start) return undefined;
  return { fragment: payload.subarray(start, end), priority };
}
