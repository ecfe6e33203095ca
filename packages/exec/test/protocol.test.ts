import { describe, expect, it } from "vitest";
import { decodeBody, FrameReader } from "../src/protocol.js";

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
    expect(decodeBody(b64({ ok: true, count: 1, value: { a: 1 } }))).toEqual({
      ok: true,
      count: 1,
      value: { a: 1 },
    });
    expect(decodeBody(b64({ ok: false, error: { message: "m" } }))).toMatchObject({ ok: false });
  });

  it("decodes UTF-8 and big integers exactly", () => {
    const body = Buffer.from(
      '{"ok":true,"count":1,"value":{"s":"\u00e9\u4e2d","n":18446744073709551615}}',
      "utf8",
    ).toString("base64");
    expect(decodeBody(body)).toEqual({
      ok: true,
      count: 1,
      value: { s: "é中", n: 18446744073709551615n },
    });
  });

  it.each([
    ["not base64!"],
    [b64([1])],
    [b64({ ok: true, count: "1" })],
    [b64({ ok: false })],
    [Buffer.from("{").toString("base64")],
  ])("rejects %s", (body) => {
    expect(() => decodeBody(body)).toThrow(SyntaxError);
  });
});
