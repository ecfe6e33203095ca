import { huffmanDecode } from "./huffman.js";

// The static table's names (RFC 7541 Appendix A), index 1 first: a literal that names its field
// by index adds an entry whose size counts the name's length (§4.1).
const staticNames = [
  ":authority",
  ":method",
  ":method",
  ":path",
  ":path",
  ":scheme",
  ":scheme",
  ":status",
  ":status",
  ":status",
  ":status",
  ":status",
  ":status",
  ":status",
  "accept-charset",
  "accept-encoding",
  "accept-language",
  "accept-ranges",
  "accept",
  "access-control-allow-origin",
  "age",
  "allow",
  "authorization",
  "cache-control",
  "content-disposition",
  "content-encoding",
  "content-language",
  "content-length",
  "content-location",
  "content-range",
  "content-type",
  "cookie",
  "date",
  "etag",
  "expect",
  "expires",
  "from",
  "host",
  "if-match",
  "if-modified-since",
  "if-none-match",
  "if-range",
  "if-unmodified-since",
  "last-modified",
  "link",
  "location",
  "max-forwards",
  "proxy-authenticate",
  "proxy-authorization",
  "range",
  "referer",
  "refresh",
  "retry-after",
  "server",
  "set-cookie",
  "strict-transport-security",
  "transfer-encoding",
  "user-agent",
  "vary",
  "via",
  "www-authenticate",
];

/** A string literal without Huffman coding: its length as a 7-bit-prefix integer (RFC 7541 §5.1, §5.2). */
export function rawString(octets: Uint8Array): Buffer {
  const head: number[] = [];
  let length = octets.length;
  if (length < 0x7f) head.push(length);
  else {
    head.push(0x7f);
    length -= 0x7f;
    while (length >= 0x80) {
      head.push((length % 0x80) | 0x80);
      length = Math.floor(length / 0x80);
    }
    head.push(length);
  }
  return Buffer.concat([Buffer.from(head), octets]);
}

/** A header field as a literal without indexing and with a literal name: no table changes (§6.2.2). */
export function unindexedField(name: string, value: string): Buffer {
  return Buffer.concat([
    Buffer.from([0]),
    rawString(Buffer.from(name, "latin1")),
    rawString(Buffer.from(value, "latin1")),
  ]);
}

/** The initial SETTINGS_HEADER_TABLE_SIZE (RFC 7540 §6.5.2), which nghttp2 keeps. */
export const defaultTableSize = 4096;

const authorityName = ":authority";

/** A literal `:authority` field of a header block: where its value's string lies, and the value. */
export interface AuthorityLiteral {
  /** Offset of the value's string (its length prefix) in the block. */
  readonly start: number;
  /** Offset just past the value's string. */
  readonly end: number;
  /** The value's octets, Huffman-decoded. */
  readonly value: Uint8Array;
}

/** What {@link HpackMirror.decode} found in a block. */
export interface BlockScan {
  /** Whether a `:authority` field is in the block, by index or as a literal. */
  readonly hasAuthority: boolean;
  /** The literal `:authority` fields, in order. */
  readonly literals: readonly AuthorityLiteral[];
}

interface Entry {
  readonly nameLength: number;
  readonly authority: boolean;
  readonly size: number;
}

/** Thrown inside the decoder for a block that is not valid HPACK (the caller stops rewriting). */
class Malformed extends Error {}

/**
 * The dynamic table of a client's HPACK encoder, followed block by block (RFC 7541 §2.3, §4),
 * so a field can be found and rewritten where the server's decoder will read it. It keeps each
 * entry's size and whether it names `:authority`, not the values.
 */
export class HpackMirror {
  // Newest first, as HPACK numbers them (index 62 is entries[0]).
  readonly #entries: Entry[] = [];
  #size = 0;
  #max = defaultTableSize;
  #block: Uint8Array = new Uint8Array(0);
  #at = 0;

  /** The table's size in octets (RFC 7541 §4.1), as the client's encoder counts it. */
  get tableSize(): number {
    return this.#size;
  }

  /** Reads one complete header block, updating the table; undefined when it is not valid HPACK. */
  decode(block: Uint8Array): BlockScan | undefined {
    this.#block = block;
    this.#at = 0;
    const literals: AuthorityLiteral[] = [];
    let hasAuthority = false;
    try {
      while (this.#at < block.length) {
        const first = block[this.#at] ?? 0;
        if (first & 0x80) {
          hasAuthority = this.#name(this.#integer(7)).authority || hasAuthority;
        } else if ((first & 0xe0) === 0x20) {
          this.#max = this.#integer(5);
          this.#evict(0);
        } else {
          // 01: incremental indexing (6-bit prefix); 0000 / 0001: not indexed (4-bit prefix).
          const indexed = (first & 0xc0) === 0x40;
          const nameIndex = this.#integer(indexed ? 6 : 4);
          const name = nameIndex === 0 ? this.#literalName() : this.#name(nameIndex);
          const start = this.#at;
          const value = this.#string(indexed || name.authority);
          if (name.authority) {
            hasAuthority = true;
            literals.push({ start, end: this.#at, value: value.octets ?? new Uint8Array(0) });
          }
          if (indexed) this.#insert(name.length, value.length, name.authority);
        }
      }
    } catch (error) {
      if (error instanceof Malformed) return undefined;
      throw error;
    }
    return { hasAuthority, literals };
  }

  #integer(prefixBits: number): number {
    const mask = (1 << prefixBits) - 1;
    let value = (this.#block[this.#at++] ?? 0) & mask;
    if (value < mask) return value;
    for (let shift = 0; ; shift += 7) {
      if (this.#at >= this.#block.length || shift > 28) throw new Malformed();
      const byte = this.#block[this.#at++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
  }

  /** A string's decoded length and, when asked for (or free), its octets. */
  #string(needOctets: boolean): { length: number; octets?: Uint8Array } {
    if (this.#at >= this.#block.length) throw new Malformed();
    const huffman = ((this.#block[this.#at] ?? 0) & 0x80) !== 0;
    const length = this.#integer(7);
    const end = this.#at + length;
    if (end > this.#block.length) throw new Malformed();
    const raw = this.#block.subarray(this.#at, end);
    this.#at = end;
    if (!huffman) return { length, octets: raw };
    // A Huffman string's decoded length is only known by decoding it; skip it when unneeded.
    if (!needOctets) return { length: -1 };
    const octets = huffmanDecode(raw);
    if (octets === undefined) throw new Malformed();
    return { length: octets.length, octets };
  }

  #literalName(): { length: number; authority: boolean } {
    const { octets } = this.#string(true);
    if (octets === undefined) throw new Malformed();
    const authority =
      octets.length === authorityName.length &&
      Buffer.from(octets.buffer, octets.byteOffset, octets.length).toString("latin1") ===
        authorityName;
    return { length: octets.length, authority };
  }

  #name(index: number): { length: number; authority: boolean } {
    if (index === 0) throw new Malformed();
    const name = staticNames[index - 1];
    if (name !== undefined) return { length: name.length, authority: index === 1 };
    const entry = this.#entries[index - staticNames.length - 1];
    if (entry === undefined) throw new Malformed();
    return { length: entry.nameLength, authority: entry.authority };
  }

  #insert(nameLength: number, valueLength: number, authority: boolean): void {
    if (valueLength < 0) throw new Malformed();
    const size = nameLength + valueLength + 32;
    // An entry larger than the table empties it and is not added (§4.4).
    this.#evict(Math.min(size, this.#max + 1));
    if (size > this.#max) return;
    this.#entries.unshift({ nameLength, authority, size });
    this.#size += size;
  }

  /** Evicts the oldest entries until `room` more octets fit. */
  #evict(room: number): void {
    while (this.#size + room > this.#max) {
      const oldest = this.#entries.pop();
      if (oldest === undefined) break;
      this.#size -= oldest.size;
    }
  }
}
