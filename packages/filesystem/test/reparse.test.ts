// The one classification every walk uses (issue #33 item 1), from reparse data as Windows
// records it (winnt.h tags, ntifs.h REPARSE_DATA_BUFFER), and the koffi reader's declarations
// and parsing, checked where koffi only parses.
import { createRequire } from "node:module";
import type * as KoffiModule from "koffi";
import { describe, expect, it } from "vitest";
import { classifyReparsePoint, REPARSE_PROTOTYPES, reparseTags } from "../src/index.js";
import { substituteName } from "../src/reparse-win32.js";

const { SYMLINK, MOUNT_POINT, APPEXECLINK } = reparseTags;
const guid = "Volume{0a1b2c3d-0000-4000-8000-00000000abcd}";

describe("classifyReparsePoint", () => {
  it.each([
    ["no reparse point", undefined, { kind: "plain" }],
    // mklink /D x C:\y, mklink /J x C:\y: libuv reads both as links to C:\y.
    [
      "a symbolic link to a drive path",
      { tag: SYMLINK, target: "\\??\\C:\\y" },
      { kind: "link", target: "C:\\y" },
    ],
    [
      "a junction to a drive path",
      { tag: MOUNT_POINT, target: "\\??\\c:\\y\\" },
      { kind: "link", target: "c:\\y\\" },
    ],
    [
      "a link as readlink gives it",
      { tag: SYMLINK, target: "C:\\y" },
      { kind: "link", target: "C:\\y" },
    ],
    [
      "a relative symbolic link",
      { tag: SYMLINK, target: "..\\y" },
      { kind: "link", target: "..\\y" },
    ],
    [
      "a Linux link of a simulated host",
      { tag: SYMLINK, target: "/sim/root/y" },
      { kind: "link", target: "/sim/root/y" },
    ],
    // An SMB mapping's link: CreateSymbolicLinkW stores \??\UNC\server\share.
    [
      "a link to a share",
      { tag: SYMLINK, target: "\\??\\UNC\\srv\\share\\dir\\" },
      { kind: "share", remotePath: "\\\\srv\\share\\dir" },
    ],
    [
      "a link to a share as readlink gives it",
      { tag: SYMLINK, target: "\\\\srv\\share" },
      { kind: "share", remotePath: "\\\\srv\\share" },
    ],
    // mountvol / Add-PartitionAccessPath: a junction to \??\Volume{guid}\.
    [
      "a volume mount point",
      { tag: MOUNT_POINT, target: `\\??\\${guid}\\` },
      { kind: "volume", volumeId: `\\\\?\\${guid}\\`, path: [] },
    ],
    [
      "a symbolic link into a volume",
      { tag: SYMLINK, target: `\\??\\${guid}\\a\\b` },
      { kind: "volume", volumeId: `\\\\?\\${guid}\\`, path: ["a", "b"] },
    ],
    [
      "a link written with \\\\?\\",
      { tag: SYMLINK, target: `\\\\?\\${guid}\\` },
      { kind: "volume", volumeId: `\\\\?\\${guid}\\`, path: [] },
    ],
    // Not a path any request can name, so never followed.
    [
      "a junction to a volume's device",
      { tag: MOUNT_POINT, target: "\\??\\GLOBALROOT\\Device\\HarddiskVolume3\\" },
      { kind: "opaque", tag: MOUNT_POINT },
    ],
    [
      "a link into the device namespace",
      { tag: SYMLINK, target: "\\\\.\\PhysicalDrive0" },
      { kind: "opaque", tag: SYMLINK },
    ],
    [
      "a junction to a malformed volume name",
      { tag: MOUNT_POINT, target: "\\??\\Volume{x}\\" },
      { kind: "opaque", tag: MOUNT_POINT },
    ],
    ["a link with no target", { tag: SYMLINK }, { kind: "opaque", tag: SYMLINK }],
    ["unreadable reparse data", { tag: 0 }, { kind: "opaque", tag: 0 }],
    ["an app execution alias", { tag: APPEXECLINK }, { kind: "opaque", tag: APPEXECLINK }],
    // IO_REPARSE_TAG_WCI (0x80000018) has no name-surrogate bit; IO_REPARSE_TAG_LX_SYMLINK does.
    [
      "another name surrogate (a WSL link)",
      { tag: 0xa000001d },
      { kind: "opaque", tag: 0xa000001d },
    ],
    // Deduplication, WOF compression, cloud files: the data is the entry's own.
    ["a deduplicated file", { tag: 0x80000013 }, { kind: "plain" }],
    ["a WOF-compressed file", { tag: 0x80000017 }, { kind: "plain" }],
    ["a cloud file", { tag: 0x9000001a }, { kind: "plain" }],
  ] as const)("%s", (_name, data, expected) => {
    expect(classifyReparsePoint(data)).toEqual(expected);
  });
});

/** A REPARSE_DATA_BUFFER as ntifs.h lays it out, substitute name first, print name after. */
function reparseBuffer(tag: number, substitute: string, print: string): Buffer {
  const symlink = tag === SYMLINK;
  const names = Buffer.from(substitute + print, "utf16le");
  const header = symlink ? 20 : 16;
  const data = Buffer.alloc(header + names.length + 4);
  data.writeUInt32LE(tag, 0);
  data.writeUInt16LE(data.length - 8, 4);
  data.writeUInt16LE(0, 8); // SubstituteNameOffset
  data.writeUInt16LE(substitute.length * 2, 10);
  data.writeUInt16LE(substitute.length * 2, 12); // PrintNameOffset
  data.writeUInt16LE(print.length * 2, 14);
  if (symlink) data.writeUInt32LE(0, 16); // Flags: absolute
  names.copy(data, header);
  return data;
}

describe("substituteName (REPARSE_DATA_BUFFER)", () => {
  it("reads a mount point's substitute name, not its print name", () => {
    const data = reparseBuffer(MOUNT_POINT, `\\??\\${guid}\\`, "");
    expect(substituteName(data)).toEqual({ tag: MOUNT_POINT, target: `\\??\\${guid}\\` });
  });

  it("reads a symbolic link's past its Flags field", () => {
    const data = reparseBuffer(SYMLINK, "\\??\\UNC\\srv\\share", "\\\\srv\\share");
    expect(substituteName(data)).toEqual({ tag: SYMLINK, target: "\\??\\UNC\\srv\\share" });
  });

  it("gives only the tag for other tags and for a short or inconsistent buffer", () => {
    expect(substituteName(reparseBuffer(0x80000013, "", ""))).toEqual({ tag: 0x80000013 });
    const truncated = reparseBuffer(SYMLINK, "\\??\\C:\\x", "").subarray(0, 22);
    expect(substituteName(truncated)).toEqual({ tag: SYMLINK });
    expect(substituteName(Buffer.alloc(2))).toEqual({ tag: 0 });
  });
});

// fileapi.h, fileapi.h (GetFileInformationByHandleEx: winbase.h), ioapiset.h, handleapi.h,
// errhandlingapi.h: each parameter as passed on x64.
const SDK: Record<string, string[]> = {
  CreateFileW: ["wstring", "uint32", "uint32", "pointer", "uint32", "uint32", "word64"],
  GetFileInformationByHandleEx: ["word64", "int32", "pointer", "uint32"],
  DeviceIoControl: [
    "word64",
    "uint32",
    "pointer",
    "uint32",
    "pointer",
    "uint32",
    "pointer",
    "pointer",
  ],
  CloseHandle: ["word64"],
  GetLastError: [],
};
const OUTPUTS: Record<string, number[]> = {
  GetFileInformationByHandleEx: [2],
  DeviceIoControl: [4, 6],
};

const koffi = (() => {
  try {
    return createRequire(import.meta.url)("koffi") as typeof KoffiModule;
  } catch {
    return undefined;
  }
})();

function abiOf(type: KoffiModule.TypeObject): string {
  switch (type.primitive) {
    case "String16":
      return "wstring";
    case "Pointer":
      return type.ref?.primitive === "UInt16" || type.ref?.primitive === "Int16"
        ? "wstring"
        : "pointer";
    case "Int64":
    case "UInt64":
      return "word64";
    case "Int32":
      return "int32";
    case "UInt32":
      return "uint32";
    default:
      return `${type.primitive}/${type.size}`;
  }
}

describe("the reader's Win32 declarations", () => {
  it.skipIf(koffi === undefined || (process.arch !== "x64" && process.arch !== "arm64"))(
    "pass every parameter as the SDK's types are passed on x64",
    () => {
      if (koffi === undefined) return;
      expect(Object.keys(REPARSE_PROTOTYPES).sort()).toEqual(Object.keys(SDK).sort());
      for (const [name, declaration] of Object.entries(REPARSE_PROTOTYPES)) {
        const proto = koffi.proto(declaration).proto;
        expect(proto?.name).toBe(name);
        const args = (proto?.arguments ?? []) as unknown as {
          type: KoffiModule.TypeObject;
          direction: string;
        }[];
        expect(
          args.map((arg) => abiOf(arg.type)),
          name,
        ).toEqual(SDK[name]);
        const outputs = args.flatMap((arg, index) => (arg.direction === "Input" ? [] : [index]));
        expect(outputs, name).toEqual(OUTPUTS[name] ?? []);
      }
    },
  );
});
