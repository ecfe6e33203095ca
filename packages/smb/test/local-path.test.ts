import { describe, expect, it } from "vitest";
import { normalizeLocalPath, platformPathStyle } from "../src/index.js";

const windows = { style: "windows" } as const;

describe("normalizeLocalPath (Windows rules)", () => {
  it.each([
    ["C:\\var\\lib\\kubelet\\pv", "C:\\var\\lib\\kubelet\\pv"],
    ["c:\\a\\\\b\\.\\c\\", "C:\\a\\b\\c"],
    ["\\var\\lib\\kubelet\\pv", "C:\\var\\lib\\kubelet\\pv"],
    ["\\\\?\\D:\\long\\path", "D:\\long\\path"],
    ["C:\\a..b\\c", "C:\\a..b\\c"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeLocalPath(input, windows)).toBe(expected);
  });

  it("puts root-relative paths on the configured system drive", () => {
    expect(normalizeLocalPath("\\pv", { style: "windows", systemDrive: "E:" })).toBe("E:\\pv");
    expect(() => normalizeLocalPath("\\pv", { style: "windows", systemDrive: "E" })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });

  it.each([
    "",
    "relative\\path",
    "C:",
    "C:\\",
    "\\\\srv\\share\\x",
    "C:\\a\\..\\b",
    "C:\\a/b",
    "C:\\a:b",
    "C:\\a*b",
    "C:\\a\nb",
    "C:\\a\u0000b",
    "C:\\NUL\\x",
    "C:\\com1.txt",
    `C:\\${"a".repeat(260)}`,
  ])("rejects %j", (input) => {
    expect(() => normalizeLocalPath(input, windows)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });

  it("allows long paths only with the \\\\?\\ prefix", () => {
    const long = `D:\\${"a".repeat(300)}`;
    expect(normalizeLocalPath(`\\\\?\\${long}`, windows)).toBe(long);
  });
});

describe("normalizeLocalPath (POSIX rules)", () => {
  it("normalises absolute paths and rejects relative, root and .. paths", () => {
    const posix = { style: "posix" } as const;
    expect(normalizeLocalPath("/var//lib/./pv/", posix)).toBe("/var/lib/pv");
    for (const bad of ["relative", "/", "/a/../b", 7]) {
      expect(() => normalizeLocalPath(bad, posix)).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }),
      );
    }
  });

  it("follows the platform by default", () => {
    expect(platformPathStyle("win32")).toBe("windows");
    expect(platformPathStyle("linux")).toBe("posix");
  });
});
