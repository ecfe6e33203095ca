// HTTP/2 framing (RFC 9113 §4.1, §6): what the connection guard reads and writes.

/** Frame types. */
export const FrameType = {
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9,
} as const;

/** Frame flags. */
export const Flag = {
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
} as const;

/** Error codes (RFC 9113 §7). */
export const ErrorCode = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  ENHANCE_YOUR_CALM: 0xb,
} as const;

/** A frame header's length. */
export const headerLength = 9;

/** The client connection preface (RFC 9113 §3.4). */
export const clientPreface = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/**
 * The largest frame payload the server accepts: nghttp2's SETTINGS_MAX_FRAME_SIZE, which Node
 * leaves at the protocol's initial 16,384 (RFC 9113 §6.5.2).
 */
export const maxFramePayload = 16_384;

/** A frame's header fields. */
export interface FrameHeader {
  readonly length: number;
  readonly type: number;
  readonly flags: number;
  readonly streamId: number;
}

/** Reads the 9-byte header at `at`. */
export function readHeader(data: Uint8Array, at: number): FrameHeader {
  const byte = (i: number) => data[at + i] ?? 0;
  return {
    length: byte(0) * 0x10000 + byte(1) * 0x100 + byte(2),
    type: byte(3),
    flags: byte(4),
    streamId: (byte(5) & 0x7f) * 0x1000000 + byte(6) * 0x10000 + byte(7) * 0x100 + byte(8),
  };
}

/** One frame: header and payload. */
export function frame(type: number, flags: number, streamId: number, payload: Uint8Array): Buffer {
  const out = Buffer.alloc(headerLength + payload.length);
  out.writeUIntBE(payload.length, 0, 3);
  out[3] = type;
  out[4] = flags;
  out.writeUInt32BE(streamId & 0x7fffffff, 5);
  out.set(payload, headerLength);
  return out;
}

/** RST_STREAM for `streamId` with `code`. */
export function rstStream(streamId: number, code: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(code);
  return frame(FrameType.RST_STREAM, 0, streamId, payload);
}

/** GOAWAY naming the last stream processed, with `code` and debug data. */
export function goAway(lastStreamId: number, code: number, debug: string): Buffer {
  const payload = Buffer.alloc(8 + Buffer.byteLength(debug));
  payload.writeUInt32BE(lastStreamId & 0x7fffffff, 0);
  payload.writeUInt32BE(code, 4);
  payload.write(debug, 8, "latin1");
  return frame(FrameType.GOAWAY, 0, 0, payload);
}

/**
 * A header block as HEADERS (with `flags`' END_STREAM and `priority`'s five bytes kept) and as
 * many CONTINUATION frames as {@link maxFramePayload} needs, the last one ending the headers.
 */
export function headerFrames(
  streamId: number,
  flags: number,
  priority: Uint8Array | undefined,
  block: Uint8Array,
): Buffer[] {
  const firstRoom = maxFramePayload - (priority?.length ?? 0);
  const at = Math.min(firstRoom, block.length);
  let headersFlags = flags & Flag.END_STREAM;
  if (priority !== undefined) headersFlags |= Flag.PRIORITY;
  if (at === block.length) headersFlags |= Flag.END_HEADERS;
  const first = block.subarray(0, at);
  const payload = priority === undefined ? first : Buffer.concat([priority, first]);
  const frames = [frame(FrameType.HEADERS, headersFlags, streamId, payload)];
  if (at < block.length) frames.push(...continuationFrames(streamId, block.subarray(at)));
  return frames;
}

/** The rest of a header block as CONTINUATION frames, the last one ending the headers. */
export function continuationFrames(streamId: number, block: Uint8Array): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = 0; at < block.length || frames.length === 0;) {
    const end = Math.min(at + maxFramePayload, block.length);
    const endFlags = end === block.length ? Flag.END_HEADERS : 0;
    frames.push(frame(FrameType.CONTINUATION, endFlags, streamId, block.subarray(at, end)));
    at = end;
  }
  return frames;
}
