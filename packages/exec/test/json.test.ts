import { describe, expect, it } from "vitest";
import { parseJson } from "../src/json.js";

describe("parseJson", () => {
  it("matches JSON.parse on ordinary documents", () => {
    const text = '{"a":[1,2.5,-3e2,true,false,null,"s\\u00e9\\n"],"b":{}}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it("keeps integers beyond 2^53 exact as bigint", () => {
    expect(
      parseJson(
        '{"size":18446744073709551615,"small":9007199254740991,"neg":-9223372036854775808}',
      ),
    ).toEqual({
      size: 18446744073709551615n,
      small: 9007199254740991,
      neg: -9223372036854775808n,
    });
  });

  it("leaves long digit runs inside strings alone", () => {
    expect(parseJson('["12345678901234567890", 12345678901234567890]')).toEqual([
      "12345678901234567890",
      12345678901234567890n,
    ]);
  });

  it("keeps fractions and exponents as numbers", () => {
    expect(parseJson("[12345678901234567890.5, 1234567890123456789e2]")).toEqual([
      Number("12345678901234567890.5"),
      Number("1234567890123456789e2"),
    ]);
  });

  it("does not let __proto__ keys change the prototype", () => {
    const value = parseJson('{"__proto__":{"polluted":1},"n":12345678901234567890}') as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toContain("__proto__");
  });

  it.each(["[1,", '{"a" 1}', "[1] x", "tru", '"\\x"', "[01234567890123456789]"])(
    "rejects %s",
    (text) => {
      expect(() =>
        parseJson(text.includes("0123456789") ? text : `${text} 1234567890123456789`),
      ).toThrow(SyntaxError);
    },
  );
});
