import { describe, expect, it } from "vitest";
import { certificateTable, withoutSignature } from "../pe.mjs";

/** A minimal PE32+ header with a certificate table of `certSize` bytes at the end. */
function image(certSize: number): Buffer {
  const pe = 0x80;
  const optional = pe + 24;
  const body = 0x400;
  const buf = Buffer.alloc(body + certSize, 0);
  buf.write("MZ", 0);
  buf.writeUInt32LE(pe, 0x3c);
  buf.writeUInt32LE(0x00004550, pe);
  buf.writeUInt16LE(0x20b, optional);
  buf.writeUInt32LE(16, optional + 108);
  if (certSize > 0) {
    buf.writeUInt32LE(body, optional + 112 + 32);
    buf.writeUInt32LE(certSize, optional + 112 + 36);
    buf.fill(0xcc, body);
  }
  return buf;
}

describe("removing node.exe's Authenticode signature before injecting", () => {
  it("zeroes the certificate table entry and cuts the table off the end", () => {
    const signed = image(0x100);
    expect(certificateTable(signed)).toEqual({
      entry: 0x80 + 24 + 112 + 32,
      offset: 0x400,
      size: 0x100,
    });
    const stripped = withoutSignature(signed);
    expect(stripped.byteLength).toBe(0x400);
    expect(certificateTable(stripped)).toBeUndefined();
    expect(stripped.subarray(0, 0x80).equals(signed.subarray(0, 0x80))).toBe(true);
  });

  it("leaves an unsigned image as it is, and refuses what is not a 64-bit PE", () => {
    expect(withoutSignature(image(0)).equals(image(0))).toBe(true);
    expect(() => withoutSignature(Buffer.alloc(0x200))).toThrow(/not a PE image/);
    const pe32 = image(0);
    pe32.writeUInt16LE(0x10b, 0x80 + 24);
    expect(() => withoutSignature(pe32)).toThrow(/PE32\+/);
  });
});
