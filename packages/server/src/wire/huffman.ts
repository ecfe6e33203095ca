// HPACK's Huffman code (RFC 7541 Appendix B) is canonical: each symbol's code follows from the
// code lengths alone, listed here for symbols 0-255 and EOS (256), one base-36 digit each.
const lengths =
  "dnsssssssoussussssssssusssssssss6aacd68baa8b8666555666666678f6cad67777777777777777777777878djde6f56565666577666567655677777fbedskmkkmmmnmnnnnnonoomnonnnnlmnmnnomlkmmnnlnmmolmnnllmlnmnnkmmmnmmnqqkjmnmpqqqrrqopjlqrrqrollqqsrrrkoklmllnmmppooqnqrqqrrrrrsrrrrrqu";

const eos = 256;

/** A binary trie of the codes: node n's children are at 2n and 2n+1; a leaf holds ~symbol. */
function buildTrie(): Int32Array {
  const symbols = Array.from({ length: 257 }, (_, symbol) => symbol);
  const bits = symbols.map((symbol) => parseInt(lengths.charAt(symbol), 36));
  symbols.sort((a, b) => (bits[a] ?? 0) - (bits[b] ?? 0) || a - b);
  const trie = new Int32Array(2 * 1024).fill(0);
  let nodes = 1;
  let code = 0;
  let previous = bits[symbols[0] ?? 0] ?? 0;
  for (const [i, symbol] of symbols.entries()) {
    const length = bits[symbol] ?? 0;
    if (i > 0) code = (code + 1) * 2 ** (length - previous);
    previous = length;
    let node = 0;
    for (let bit = length - 1; bit >= 0; bit -= 1) {
      const slot = 2 * node + (Math.floor(code / 2 ** bit) % 2);
      if (bit === 0) trie[slot] = ~symbol;
      else {
        if (trie[slot] === 0) trie[slot] = nodes++;
        node = trie[slot] ?? 0;
      }
    }
  }
  return trie;
}

const trie = buildTrie();

/**
 * The octets a Huffman-coded HPACK string stands for, or undefined when it is not a valid
 * encoding (EOS inside, padding longer than 7 bits or not all ones): RFC 7541 §5.2.
 */
export function huffmanDecode(input: Uint8Array): Uint8Array | undefined {
  // Codes are at least 5 bits long, so the output is at most 8/5 of the input.
  const out = new Uint8Array(Math.ceil((input.length * 8) / 5));
  let length = 0;
  let node = 0;
  // Bits read since the last symbol, and whether all of them were ones (valid padding).
  let pending = 0;
  let allOnes = true;
  for (const byte of input) {
    for (let bit = 7; bit >= 0; bit -= 1) {
      const one = (byte >> bit) & 1;
      const next = trie[2 * node + one] ?? 0;
      pending += 1;
      allOnes &&= one === 1;
      if (next === 0) return undefined;
      if (next < 0) {
        const symbol = ~next;
        if (symbol === eos) return undefined;
        out[length++] = symbol;
        node = 0;
        pending = 0;
        allOnes = true;
      } else node = next;
    }
  }
  if (pending > 7 || !allOnes) return undefined;
  return out.subarray(0, length);
}
