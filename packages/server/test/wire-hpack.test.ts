import { describe, expect, it } from "vitest";
import { acceptedAuthority, acceptedBlock, isAcceptedAuthority } from "../src/wire/authority.js";
import { HpackMirror } from "../src/wire/hpack.js";
import { huffmanDecode } from "../src/wire/huffman.js";
import { TestEncoder } from "./hpack-encoder.js";

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ""), "hex");
const text = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : Buffer.from(bytes).toString("latin1");

describe("huffmanDecode", () => {
  // RFC 7541 Appendix C.4 and C.6.
  it.each([
    ["f1e3 c2e5 f23a 6ba0 ab90 f4ff", "www.example.com"],
    ["a8eb 1064 9cbf", "no-cache"],
    ["25a8 49e9 5ba9 7d7f", "custom-key"],
    ["25a8 49e9 5bb8 e8b4 bf", "custom-value"],
    ["6402", "302"],
    ["aec3 771a 4b", "private"],
    ["d07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff", "Mon, 21 Oct 2013 20:13:21 GMT"],
    ["9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3", "https://www.example.com"],
  ])("decodes %s as %s (RFC 7541 Appendix C)", (encoded, decoded) => {
    expect(text(huffmanDecode(hex(encoded)))).toBe(decoded);
  });

  it("refuses padding longer than 7 bits, padding that is not all ones, and EOS", () => {
    expect(huffmanDecode(hex("f1e3 c2e5 f23a 6ba0 ab90 f4ff ff"))).toBeUndefined();
    expect(huffmanDecode(hex("f1e3 c2e5 f23a 6ba0 ab90 f4fe"))).toBeUndefined();
    expect(huffmanDecode(hex("ffff ffff"))).toBeUndefined();
    expect(text(huffmanDecode(new Uint8Array(0)))).toBe("");
  });
});

describe("HpackMirror", () => {
  it("follows RFC 7541 C.4's table (57, 110, 164 octets) and finds the :authority literal", () => {
    const mirror = new HpackMirror();
    const first = mirror.decode(hex("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff"));
    expect(first?.hasAuthority).toBe(true);
    expect(first?.literals.map((l) => text(l.value))).toEqual(["www.example.com"]);
    expect(mirror.tableSize).toBe(57);
    // `be` is the :authority entry by index: no literal to rewrite, still an authority.
    expect(mirror.decode(hex("8286 84be 5886 a8eb 1064 9cbf"))).toEqual({
      hasAuthority: true,
      literals: [],
    });
    expect(mirror.tableSize).toBe(110);
    mirror.decode(hex("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf"));
    expect(mirror.tableSize).toBe(164);
  });

  it("evicts as RFC 7541 C.5 does with a 256-octet table (222, 222, 215 octets)", () => {
    const mirror = new HpackMirror();
    // C.5's table is 256 octets by SETTINGS; here a size update at the start says so.
    const resize = hex("3fe1 01");
    const blocks = [
      "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
      "4803 3330 37c1 c0bf",
      "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31",
    ];
    const sizes = blocks.map((block, i) => {
      expect(
        mirror.decode(Buffer.concat([i === 0 ? resize : Buffer.alloc(0), hex(block)])),
      ).toBeDefined();
      return mirror.tableSize;
    });
    expect(sizes).toEqual([222, 222, 215]);
  });

  it("refuses a block that is not HPACK: an index past the table, a string past the block", () => {
    expect(new HpackMirror().decode(hex("be"))).toBeUndefined();
    expect(new HpackMirror().decode(hex("4188 f1e3"))).toBeUndefined();
    expect(new HpackMirror().decode(hex("80"))).toBeUndefined();
  });
});

describe("the :authority rewrite", () => {
  const pipe = String.raw`\\.\\pipe\\csi-proxy-filesystem-v1`;

  it("accepts what nghttp2 accepts and keeps the length of what it does not", () => {
    expect(isAcceptedAuthority(Buffer.from("localhost:50051"))).toBe(true);
    expect(isAcceptedAuthority(Buffer.from("%5C%5C.%5C%5Cpipe%5C%5Ccsi-proxy-disk-v1"))).toBe(true);
    expect(isAcceptedAuthority(Buffer.from(pipe))).toBe(false);
    expect(isAcceptedAuthority(Buffer.from("/run/csi-proxy/csi-proxy-disk-v1"))).toBe(false);
    const fixed = acceptedAuthority(Buffer.from(pipe));
    expect(text(fixed)).toBe("__.__pipe__csi-proxy-filesystem-v1");
    expect(fixed.length).toBe(pipe.length);
  });

  it("rewrites only the refused literal; the mirror keeps counting the same entry sizes", () => {
    const encoder = new TestEncoder();
    const mirror = new HpackMirror();
    const fields = [
      [":method", "POST"],
      [":scheme", "http"],
      [":path", "/v1.Filesystem/PathExists"],
      [":authority", pipe],
    ] as const;
    const block = encoder.encode(fields);
    const scan = mirror.decode(block);
    const rewritten = acceptedBlock(block, scan?.literals ?? []);
    expect(rewritten).toBeDefined();
    expect(text(rewritten)).toContain("__.__pipe__csi-proxy-filesystem-v1");
    expect(text(rewritten)).not.toContain("\\");
    // The next block names the authority by index: nothing left to rewrite.
    const again = encoder.encode(fields);
    const next = mirror.decode(again);
    expect(next).toEqual({ hasAuthority: true, literals: [] });
    expect(acceptedBlock(again, next?.literals ?? [])).toBeUndefined();
  });
});
