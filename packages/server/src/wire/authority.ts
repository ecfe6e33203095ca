import { rawString, type AuthorityLiteral } from "./hpack.js";

// nghttp2 refuses a request whose `:authority` holds a byte outside RFC 3986's authority
// characters (nghttp2_check_authority, lib/nghttp2_helper.c; called from nghttp2_http_on_header
// for a server): letters, digits and -._~!$&'()*+,;=:%@[] only.
const allowed = new Uint8Array(256);
for (const c of "-._~!$&'()*+,;=:%@[]") allowed[c.charCodeAt(0)] = 1;
for (let c = 0; c < 256; c += 1) {
  const ch = String.fromCharCode(c);
  if (/^[A-Za-z0-9]$/.test(ch)) allowed[c] = 1;
}

/** The byte put in place of each refused one: unreserved in RFC 3986, so always accepted. */
const replacement = "_".charCodeAt(0);

/** Whether nghttp2 accepts `value` as a request's `:authority`. */
export function isAcceptedAuthority(value: Uint8Array): boolean {
  for (const byte of value) if (allowed[byte] === 0) return false;
  return true;
}

/**
 * `value` with each byte nghttp2 refuses replaced by `_`. The length is kept on purpose: HPACK
 * counts an entry's size from its length, so the server's table stays the size of the client's
 * and evicts the same entries (RFC 7541 §4.1, §4.4), while holding the accepted value.
 */
export function acceptedAuthority(value: Uint8Array): Uint8Array {
  return value.map((byte) => (allowed[byte] === 0 ? replacement : byte));
}

/**
 * The header block with every refused `:authority` literal rewritten in place (same
 * representation, same name, the value made acceptable and sent without Huffman coding), or
 * undefined when none needs it.
 */
export function acceptedBlock(
  block: Uint8Array,
  literals: readonly AuthorityLiteral[],
): Buffer | undefined {
  const parts: Uint8Array[] = [];
  let copied = 0;
  for (const literal of literals) {
    if (isAcceptedAuthority(literal.value)) continue;
    parts.push(block.subarray(copied, literal.start), rawString(acceptedAuthority(literal.value)));
    copied = literal.end;
  }
  if (parts.length === 0) return undefined;
  parts.push(block.subarray(copied));
  return Buffer.concat(parts);
}
