/**
 * JSON.parse that keeps integers beyond Number.MAX_SAFE_INTEGER exact by returning them as
 * `bigint`. Every such integer has at least 16 digits, so text without a 16-digit run takes
 * the native parser; only the rest walks the slower exact parser below.
 */
export function parseJson(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text) as unknown;
  return new ExactParser(text).parseDocument();
}

const numberPattern = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// Finds the extent of a string token; JSON.parse of the token then rejects control characters and bad escapes.
const stringPattern = /"(?:[^"\\]|\\.)*"/y;

class ExactParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    const value = this.value();
    this.skipSpace();
    if (this.pos !== this.text.length) this.fail("unexpected trailing text");
    return value;
  }

  private value(): unknown {
    this.skipSpace();
    const ch = this.text[this.pos];
    if (ch === "{") return this.object();
    if (ch === "[") return this.array();
    if (ch === '"') return this.string();
    if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) return this.number();
    for (const [word, result] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return result;
      }
    }
    return this.fail("unexpected token");
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      const key = this.string();
      this.skipSpace();
      this.expect(":");
      // defineProperty, so a "__proto__" key stays data, as with JSON.parse
      Object.defineProperty(out, key, {
        value: this.value(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipSpace();
      if (this.text[this.pos] === ",") this.pos++;
      else return (this.expect("}"), out);
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.skipSpace();
      if (this.text[this.pos] === ",") this.pos++;
      else return (this.expect("]"), out);
    }
  }

  private string(): string {
    stringPattern.lastIndex = this.pos;
    const match = stringPattern.exec(this.text);
    if (!match) return this.fail("bad string");
    this.pos += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  private number(): number | bigint {
    numberPattern.lastIndex = this.pos;
    const match = numberPattern.exec(this.text);
    if (!match) return this.fail("bad number");
    this.pos += match[0].length;
    const isInteger = match[1] === undefined && match[2] === undefined;
    const asNumber = Number(match[0]);
    return isInteger && !Number.isSafeInteger(asNumber) ? BigInt(match[0]) : asNumber;
  }

  private skipSpace(): void {
    while (/[ \t\r\n]/.test(this.text[this.pos] ?? "")) this.pos++;
  }

  private expect(ch: string): void {
    if (this.text[this.pos] !== ch) this.fail(`expected '${ch}'`);
    this.pos++;
  }

  private fail(reason: string): never {
    throw new SyntaxError(`Invalid JSON at position ${this.pos}: ${reason}`);
  }
}
