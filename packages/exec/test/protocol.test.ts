import { describe, expect, it } from "vitest";
import { encodeParams } from "../src/params.js";
import { decodeBody, FrameReader, requestLine } from "../src/protocol.js";
import { ps } from "../src/script.js";

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");

describe("FrameReader", () => {
  it("routes tagged lines to frames and everything else to noise, across chunk boundaries", () => {
    const frames: [string, string][] = [];
    const noise: string[] = [];
    const reader = new FrameReader(
      "tag1",
      (id, body) => frames.push([id, body]),
      (line) => noise.push(line),
    );
    reader.push("WARNING: x\r\ntag1 7 ab");
    reader.push("cd\r\n\ntag10 8 zz\ntag1 9");
    reader.flush();
    expect(frames).toEqual([
      ["7", "abcd"],
      ["9", ""],
    ]);
    expect(noise).toEqual(["WARNING: x", "tag10 8 zz"]);
  });
});

describe("decodeBody", () => {
  it("accepts results and error records", () => {
    expect(decodeBody(`r 1 ${b64({ a: 1 })}`)).toEqual({ ok: true, count: 1, value: { a: 1 } });
    expect(decodeBody(`r 2 ${b64([1, 2])}`)).toEqual({ ok: true, count: 2, value: [1, 2] });
    expect(decodeBody("r 0 -")).toEqual({ ok: true, count: 0, value: undefined });
    expect(decodeBody(`e ${b64({ message: "m" })}`)).toMatchObject({ ok: false });
  });

  it("decodes UTF-8 and big integers exactly", () => {
    const value = Buffer.from('{"s":"\u00e9\u4e2d","n":18446744073709551615}', "utf8");
    expect(decodeBody(`r 1 ${value.toString("base64")}`)).toEqual({
      ok: true,
      count: 1,
      value: { s: "é中", n: 18446744073709551615n },
    });
  });

  it.each([
    ["not base64!"],
    [b64({ ok: true, count: 1, value: 1 })],
    ["r 1 not-base64!"],
    ["r x " + b64(1)],
    ["r 0 " + b64(1)],
    ["r 1"],
    ["r 1 " + b64(1) + " extra"],
    ["e"],
    ["e " + b64([1])],
    ["e " + b64("text")],
    ["r 1 " + Buffer.from("{").toString("base64")],
  ])("rejects %s", (body) => {
    expect(() => decodeBody(body)).toThrow(SyntaxError);
  });
});

describe("requestLine", () => {
  const script = ps("test.line")`param($Name, $Count, $Empty) $Name`;

  it("sends strings as pairs and every other value in one JSON field", () => {
    const line = requestLine(
      7,
      script,
      encodeParams({ Name: "a b", Count: 2, Empty: "" }).wire,
      false,
    );
    const b = (text: string) => Buffer.from(text, "utf8").toString("base64");
    expect(line).toBe(`7 ${script.hash} - ${b64({ Count: 2 })} Name ${b("a b")} Empty \n`);
  });

  it("sends the text when asked and a dash for no other values", () => {
    const line = requestLine(1, script, encodeParams({}).wire, true);
    expect(line.split(" ")).toEqual([
      "1",
      script.hash,
      Buffer.from(script.text, "utf8").toString("base64"),
      "-\n",
    ]);
  });
});
