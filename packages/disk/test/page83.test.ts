import { createPowerShell, ps, type PowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { listDiskIdsScript } from "../src/ids-script.js";

/** The C# sources embedded in the real script (here-strings), exactly as they ship. */
function csharpSources(): { descriptor: string; ioctl: string } {
  const sources = [...listDiskIdsScript.text.matchAll(/@'\r?\n([\s\S]*?)\r?\n'@/g)].map(
    (m) => m[1] ?? "",
  );
  const descriptor = sources.find((s) => s.includes("class DeviceIdDescriptor"));
  const ioctl = sources.find((s) => s.includes("class StorageIoctl"));
  if (descriptor === undefined || ioctl === undefined) throw new Error("C# sources not found");
  return { descriptor, ioctl };
}

// C# 5 is what Windows PowerShell 5.1's Add-Type compiles; -langversion:5 enforces it here.
const compile = ps("test.page83.compile")`
param([string[]]$Sources)
foreach ($source in $Sources) { Add-Type -TypeDefinition $source -CompilerOptions '-langversion:5' }
[pscustomobject]@{
    descriptor = [bool]('CsiProxy.DeviceIdDescriptor' -as [type])
    ioctl      = [bool]('CsiProxy.StorageIoctl' -as [type])
}
`;

const page83 = ps("test.page83.parse")`
param([string[]]$Descriptors)
,@(foreach ($d in $Descriptors) { [CsiProxy.DeviceIdDescriptor]::Page83([Convert]::FromBase64String($d)) })
`;

const page83Null = ps("test.page83.null")`[CsiProxy.DeviceIdDescriptor]::Page83($null)`;

interface Identifier {
  codeSet: number;
  type: number;
  association: number;
  bytes: Buffer;
}

/** A STORAGE_DEVICE_ID_DESCRIPTOR as Windows lays it out (identifiers 4-byte aligned). */
function descriptor(ids: Identifier[]): Buffer {
  const parts = ids.map((id) => {
    const next = 16 + Math.ceil(id.bytes.length / 4) * 4;
    const part = Buffer.alloc(next);
    part.writeUInt32LE(id.codeSet, 0);
    part.writeUInt32LE(id.type, 4);
    part.writeUInt16LE(id.bytes.length, 8);
    part.writeUInt16LE(next, 10);
    part.writeUInt32LE(id.association, 12);
    id.bytes.copy(part, 16);
    return part;
  });
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(12);
  header.writeUInt32LE(1, 0);
  header.writeUInt32LE(12 + body.length, 4);
  header.writeUInt32LE(ids.length, 8);
  return Buffer.concat([header, body]);
}

const naa = Buffer.from("60022480495f67cbc95fd232e88561a7", "hex");
const hyperV = Buffer.from("4d53465420202020328d59b360875845ac645473be8267bf", "hex");
const google = Buffer.from("Google  persistent-disk-0", "ascii");

describeWithPwsh("CsiProxy.DeviceIdDescriptor (real C#, plain pwsh)", (pwsh) => {
  let shell: PowerShell;
  let compiled: unknown;

  beforeAll(async () => {
    shell = createPowerShell({ executable: pwsh });
    const { descriptor: d, ioctl } = csharpSources();
    compiled = await shell.run(compile, { Sources: [d, ioctl] });
  });
  afterAll(async () => {
    await shell.close();
  });

  async function parse(...buffers: Buffer[]): Promise<string[]> {
    return shell.run<string[]>(page83, { Descriptors: buffers.map((b) => b.toString("base64")) });
  }

  it("both classes compile as C# 5", () => {
    expect(compiled).toEqual({ descriptor: true, ioctl: true });
  });

  it("returns a binary NAA identifier as lowercase hex", async () => {
    expect(await parse(descriptor([{ codeSet: 1, type: 3, association: 0, bytes: naa }]))).toEqual([
      "60022480495f67cbc95fd232e88561a7",
    ]);
  });

  it("returns an ASCII vendor identifier as is, spaces included", async () => {
    expect(
      await parse(descriptor([{ codeSet: 2, type: 1, association: 0, bytes: google }])),
    ).toEqual(["Google  persistent-disk-0"]);
  });

  it("skips port- and target-associated identifiers and other code sets, taking the first match", async () => {
    const d = descriptor([
      { codeSet: 1, type: 3, association: 1, bytes: Buffer.from("aabbccdd", "hex") },
      { codeSet: 2, type: 8, association: 2, bytes: Buffer.from("target-name") },
      { codeSet: 3, type: 8, association: 0, bytes: Buffer.from("utf8-name") },
      { codeSet: 1, type: 0, association: 0, bytes: hyperV },
      { codeSet: 2, type: 1, association: 0, bytes: google },
    ]);
    expect(await parse(d)).toEqual(["4d53465420202020328d59b360875845ac645473be8267bf"]);
  });

  it("does not check the identifier type", async () => {
    const d = descriptor([
      { codeSet: 2, type: 0, association: 0, bytes: Buffer.from("vendor-specific") },
    ]);
    expect(await parse(d)).toEqual(["vendor-specific"]);
  });

  it('returns "" when no identifier qualifies, or there are none', async () => {
    const portOnly = descriptor([{ codeSet: 1, type: 3, association: 1, bytes: naa }]);
    expect(await parse(portOnly, descriptor([]))).toEqual(["", ""]);
  });

  it('returns "" for empty, short and null buffers without throwing', async () => {
    expect(await parse(Buffer.alloc(0), Buffer.alloc(11))).toEqual(["", ""]);
    expect(await shell.run(page83Null)).toBe("");
  });

  it("stops at a truncated identifier instead of reading past the buffer", async () => {
    const full = descriptor([
      { codeSet: 1, type: 3, association: 1, bytes: naa },
      { codeSet: 1, type: 3, association: 0, bytes: naa },
    ]);
    // Cut inside the second identifier's bytes, then inside its header.
    const results = await parse(full.subarray(0, full.length - 4), full.subarray(0, 12 + 32 + 8));
    expect(results).toEqual(["", ""]);
    // A truncated second identifier does not hide a complete first one.
    const first = descriptor([
      { codeSet: 2, type: 1, association: 0, bytes: google },
      { codeSet: 1, type: 3, association: 0, bytes: naa },
    ]);
    expect(await parse(first.subarray(0, first.length - 4))).toEqual(["Google  persistent-disk-0"]);
  });

  it("ignores a count larger than the buffer and a zero NextOffset", async () => {
    const lying = descriptor([{ codeSet: 1, type: 3, association: 1, bytes: naa }]);
    lying.writeUInt32LE(1000, 8);
    const stuck = descriptor([{ codeSet: 1, type: 3, association: 1, bytes: naa }]);
    stuck.writeUInt16LE(0, 12 + 10);
    stuck.writeUInt32LE(50, 8);
    expect(await parse(lying, stuck)).toEqual(["", ""]);
  });

  it("honours the descriptor's own Size when the buffer is longer", async () => {
    const d = descriptor([{ codeSet: 1, type: 3, association: 0, bytes: naa }]);
    const padded = Buffer.concat([d, Buffer.alloc(4096 - d.length)]);
    expect(await parse(padded)).toEqual(["60022480495f67cbc95fd232e88561a7"]);
    const shrunk = Buffer.from(padded);
    shrunk.writeUInt32LE(20, 4);
    expect(await parse(shrunk)).toEqual([""]);
  });
});
