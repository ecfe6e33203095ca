import { describe, expect, it } from "vitest";
import { encodeParams } from "../src/params.js";
import { createRedactor } from "../src/redact.js";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

describe("encodeParams", () => {
  it("tags strings and bigints and recurses into arrays and objects", () => {
    const { wire } = encodeParams({
      S: "2020-01-01T00:00:00",
      N: 3,
      B: true,
      Z: null,
      Big: 2n ** 64n - 1n,
      A: ["x", 1],
      O: { k: "v" },
    });
    expect(wire).toEqual({
      S: { s: b64("2020-01-01T00:00:00") },
      N: 3,
      B: true,
      Z: null,
      Big: { n: "18446744073709551615" },
      A: { a: [{ s: b64("x") }, 1] },
      O: { o: { k: { s: b64("v") } } },
    });
  });

  it("skips undefined entries", () => {
    expect(encodeParams({ A: undefined, B: 1 }).wire).toEqual({ B: 1 });
  });

  it.each([
    [{ "bad name": 1 }, /not a valid PowerShell parameter name/],
    [{ "A;B": 1 }, /not a valid/],
    [{ N: Number.NaN }, /finite/],
    [{ N: Number.POSITIVE_INFINITY }, /finite/],
    [{ N: 2n ** 64n }, /64-bit/],
    [{ D: new Date() as never }, /Date/],
    [{ F: (() => 1) as never }, /function/],
    [{ M: new Map() as never }, /Map/],
  ])("rejects %o", (params, message) => {
    expect(() => encodeParams(params)).toThrow(message);
  });

  it("rejects parameters that are not a plain object", () => {
    expect(() => encodeParams([] as never)).toThrow(/plain object/);
  });

  it("rejects runaway nesting", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(() => encodeParams({ D: deep as never })).toThrow(/deeper/);
  });

  it("redacts secrets by convention and by name, and collects their strings", () => {
    const result = encodeParams(
      { Password: "p@ss", ChapSecret: "chap", Custom: { inner: ["deep"] }, Plain: "visible" },
      ["custom"],
    );
    expect(result.redacted).toEqual({
      Password: "[REDACTED]",
      ChapSecret: "[REDACTED]",
      Custom: "[REDACTED]",
      Plain: "visible",
    });
    expect([...result.secretValues].sort()).toEqual(["chap", "deep", "p@ss"]);
  });
});

describe("createRedactor", () => {
  it("replaces every occurrence, including quoted and JSON-escaped forms", () => {
    const redact = createRedactor(["it's\"secret"]);
    expect(redact(`a it's"secret b it''s"secret c it's\\"secret`)).toBe(
      "a [REDACTED] b [REDACTED] c [REDACTED]",
    );
  });

  it("prefers the longest secret when secrets overlap", () => {
    expect(createRedactor(["abc", "abcdef"])("x abcdef x")).toBe("x [REDACTED] x");
    expect(createRedactor(["secret-12", "secret-123456"])("xsecret-123456x")).toBe("x[REDACTED]x");
  });

  it("replaces a short secret only as a whole token, never inside words, keys or names", () => {
    const redact = createRedactor(["p"]);
    expect(redact(`smb.NewSmbGlobalMapping: "endpoint": the password 'p' was refused (p)`)).toBe(
      `smb.NewSmbGlobalMapping: "endpoint": the password '[REDACTED]' was refused ([REDACTED])`,
    );
    expect(createRedactor(["pass1"])("bypass1 pass1")).toBe("bypass1 [REDACTED]");
  });

  it("replaces a secret of 8 characters or more wherever it appears", () => {
    expect(createRedactor(["password"])("passwords: password")).toBe("[REDACTED]s: [REDACTED]");
  });

  it("is the identity with no secrets", () => {
    expect(createRedactor([])("text")).toBe("text");
  });
});
