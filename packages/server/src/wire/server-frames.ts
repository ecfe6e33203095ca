import { headerLength, readHeader, type FrameHeader } from "./frames.js";

/**
 * The server's side of one HTTP/2 connection, read on its way to the client: each frame's header
 * is reported, and whether the bytes written so far end on a frame boundary, where a frame of
 * the guard's own (GOAWAY, RST_STREAM) may go in.
 */
export class ServerFrames {
  readonly #onFrame: (header: FrameHeader) => void;
  readonly #head = Buffer.alloc(headerLength);
  #headLength = 0;
  #skip = 0;

  constructor(onFrame: (header: FrameHeader) => void) {
    this.#onFrame = onFrame;
  }

  /** Whether what was read so far ends on a frame boundary. */
  get atBoundary(): boolean {
    return this.#skip === 0 && this.#headLength === 0;
  }

  /** Reads bytes the server writes (its own preface-free stream of frames). */
  read(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.#skip > 0) {
        const n = Math.min(this.#skip, chunk.length - at);
        at += n;
        this.#skip -= n;
        continue;
      }
      let header: FrameHeader;
      if (this.#headLength === 0 && chunk.length - at >= headerLength) {
        header = readHeader(chunk, at);
        at += headerLength;
      } else {
        const n = Math.min(headerLength - this.#headLength, chunk.length - at);
        this.#head.set(chunk.subarray(at, at + n), this.#headLength);
        this.#headLength += n;
        at += n;
        if (this.#headLength < headerLength) return;
        this.#headLength = 0;
        header = readHeader(this.#head, 0);
      }
      this.#skip = header.length;
      this.#onFrame(header);
    }
  }
}
