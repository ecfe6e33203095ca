// A small HPACK encoder for the tests (RFC 7541), written apart from the server's decoder: it
// indexes every field it may, so a block leans on its dynamic table as grpc-go's does, and its
// table can be made small with a size update so that entries are evicted.

function integer(value: number, prefixBits: number, first: number): number[] {
  const mask = (1 << prefixBits) - 1;
  if (value < mask) return [first | value];
  const out = [first | mask];
  let rest = value - mask;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

function rawString(text: string): number[] {
  const bytes = [...Buffer.from(text, "latin1")];
  return [...integer(bytes.length, 7, 0), ...bytes];
}

const staticFields: readonly (readonly [string, string])[] = [
  [":authority", ""],
  [":method", "GET"],
  [":method", "POST"],
  [":path", "/"],
  [":path", "/index.html"],
  [":scheme", "http"],
  [":scheme", "https"],
];

/** Encodes header lists one block at a time, as one client's encoder does on one connection. */
export class TestEncoder {
  #table: [string, string][] = [];
  #max = 4096;
  #pendingSize: number | undefined;

  /** The next block starts with a dynamic table size update to `size`. */
  resize(size: number): void {
    this.#pendingSize = size;
  }

  #size(): number {
    return this.#table.reduce((sum, [name, value]) => sum + name.length + value.length + 32, 0);
  }

  #add(name: string, value: string): void {
    const size = name.length + value.length + 32;
    if (size > this.#max) {
      this.#table = [];
      return;
    }
    this.#table.unshift([name, value]);
    while (this.#size() > this.#max) this.#table.pop();
  }

  /** One header block; `literal` names fields sent without indexing. */
  encode(fields: readonly (readonly [string, string])[], literal: readonly string[] = []): Buffer {
    const out: number[] = [];
    if (this.#pendingSize !== undefined) {
      this.#max = this.#pendingSize;
      out.push(...integer(this.#max, 5, 0x20));
      while (this.#size() > this.#max) this.#table.pop();
      this.#pendingSize = undefined;
    }
    for (const [name, value] of fields) {
      const staticFull = staticFields.findIndex(([n, v]) => n === name && v === value);
      const dynamicFull = this.#table.findIndex(([n, v]) => n === name && v === value);
      if (staticFull >= 0) out.push(...integer(staticFull + 1, 7, 0x80));
      else if (dynamicFull >= 0) out.push(...integer(dynamicFull + 62, 7, 0x80));
      else {
        const staticName = staticFields.findIndex(([n]) => n === name);
        const dynamicName = this.#table.findIndex(([n]) => n === name);
        const nameIndex =
          staticName >= 0 ? staticName + 1 : dynamicName >= 0 ? dynamicName + 62 : 0;
        const indexed = !literal.includes(name);
        out.push(...integer(nameIndex, indexed ? 6 : 4, indexed ? 0x40 : 0x00));
        if (nameIndex === 0) out.push(...rawString(name));
        out.push(...rawString(value));
        if (indexed) this.#add(name, value);
      }
    }
    return Buffer.from(out);
  }
}
