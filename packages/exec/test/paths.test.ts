import { describe, expect, it } from "vitest";
import { foldWindowsName, isWithin, normalizePath } from "../src/index.js";

const win = (path: unknown, systemDrive?: string) =>
  normalizePath(path, { style: "windows", ...(systemDrive === undefined ? {} : { systemDrive }) });
const posix = (path: unknown) => normalizePath(path, { style: "posix" });

describe("Windows path rules", () => {
  it.each([
    ["C:\\var\\lib\\kubelet\\pods\\pv1", "C:\\var\\lib\\kubelet\\pods\\pv1"],
    ["C:\\var\\lib\\kubelet\\plugins\\pv1", "C:\\var\\lib\\kubelet\\plugins\\pv1"],
    ["c:\\a\\\\b\\.\\c\\", "C:\\a\\b\\c"],
    ["C:\\", "C:\\"],
    ["C:\\a..b\\c", "C:\\a..b\\c"],
    ["C:\\pods\\CONIN", "C:\\pods\\CONIN"],
    ["C:\\pods\\CONIN$x", "C:\\pods\\CONIN$x"],
    ["C:\\pods\\console", "C:\\pods\\console"],
    ["\\var\\lib\\kubelet\\pods\\x", "C:\\var\\lib\\kubelet\\pods\\x"],
    ["\\\\?\\C:\\var\\lib\\kubelet\\x", "C:\\var\\lib\\kubelet\\x"],
    ["C:\\caf\u00e9\\\u4e2d", "C:\\caf\u00e9\\\u4e2d"],
  ])("accepts %s as %s", (input, expected) => {
    expect(win(input)).toBe(expected);
  });

  it("puts root-relative paths on the configured system drive", () => {
    expect(win("\\var\\lib\\kubelet", "D:")).toBe("D:\\var\\lib\\kubelet");
    expect(() => win("\\var", "D")).toThrow(/systemDrive/);
  });

  it.each([
    ["C:\\var\\lib\\kubelet\\pods\\pv1:foo", /invalid characters/],
    ["C:\\var\\lib\\kubelet\\pods\\pv1/foo", /mixes \//],
    ["C:\\var\\lib\\kubelet\\pods\\pv1*foo", /invalid characters/],
    ["C:\\var\\lib\\kubelet\\pods\\pv1?foo", /invalid characters/],
    ["C:\\var\\lib\\kubelet\\csi-plugin|pv1\\foo", /invalid characters/],
    ["C:\\var\\lib\\kubelet\\pods\\pv1<x>", /invalid characters/],
    ["C:\\var\\lib\\kubelet\\pods\\pv1\\..\\..\\..\\system32", /'\.\.' segment/],
    ["C:\\a\\...\\b", /'\.\.\.' segment/],
    ["\\\\csi-plugin\\..\\..\\..\\system32", /UNC/],
    ["\\\\server\\share\\x", /UNC/],
    ["\\\\?\\UNC\\server\\share", /long paths/],
    ["\\\\?\\Volume{12345678-1234-1234-1234-123456789abc}\\", /long paths/],
    ["pv1\\foo", /absolute/],
    ["C:relative", /absolute/],
    ["", /empty/],
    [42, /empty/],
    ["C:\\a\u0000b", /NUL/],
    ["C:\\pods\\NUL", /reserved device/],
    ["C:\\pods\\com1.txt\\x", /reserved device/],
    ["C:\\pods\\CONIN$", /reserved device/],
    ["C:\\pods\\conout$\\x", /reserved device/],
    ["C:\\pods\\CONIN$.txt", /reserved device/],
    ["C:\\pods\\COM\u00b9", /reserved device/],
    ["C:\\pods\\lpt\u00b3.log", /reserved device/],
    ["C:\\pods\\a\tb", /invalid characters/],
    [`C:\\${"a".repeat(300)}`, /longer than 260/],
  ])("rejects %s", (input, message) => {
    expect(() => win(input)).toThrow(message);
  });

  it("allows long paths only with the \\\\?\\ prefix", () => {
    const long = `C:\\${"a\\".repeat(200)}end`;
    expect(() => win(long)).toThrow(/260/);
    expect(win(`\\\\?\\${long}`)).toBe(long);
  });

  it("raises INVALID_ARGUMENT", () => {
    expect(() => win("relative")).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }) as Error,
    );
  });
});

describe("POSIX path rules", () => {
  it("normalises absolute paths", () => {
    expect(posix("/var//lib/./kubelet/")).toBe("/var/lib/kubelet");
    expect(posix("/")).toBe("/");
  });

  it.each([["relative/x"], ["/a/../b"], [""], ["/a\u0000"]])("rejects %s", (input) => {
    expect(() => posix(input)).toThrow();
  });
});

describe("isWithin", () => {
  it("needs a separator boundary", () => {
    expect(isWithin("C:\\kubeletX\\a", "C:\\kubelet", "windows")).toBe(false);
    expect(isWithin("C:\\kubelet\\a", "C:\\kubelet", "windows")).toBe(true);
    expect(isWithin("C:\\kubelet", "C:\\kubelet", "windows")).toBe(true);
    expect(isWithin("/kubeletX", "/kubelet", "posix")).toBe(false);
    expect(isWithin("/anything", "/", "posix")).toBe(true);
  });

  it("ignores case on Windows only", () => {
    expect(isWithin("c:\\KUBELET\\a", "C:\\kubelet", "windows")).toBe(true);
    expect(isWithin("/KUBELET/a", "/kubelet", "posix")).toBe(false);
  });
});

describe("foldWindowsName", () => {
  it("folds one UTF-16 unit to one, as NTFS's upcase table does", () => {
    expect(foldWindowsName("c:\\Var\\lib")).toBe("C:\\VAR\\LIB");
    expect(foldWindowsName("ÜBER über Ωμέγα")).toBe("ÜBER ÜBER ΩΜΈΓΑ");
    expect(foldWindowsName("straße")).toBe("STRAßE");
    expect(foldWindowsName("\ud801\udc28")).toBe("\ud801\udc28");
    expect(foldWindowsName("\u212a")).toBe("\u212a");
  });

  it("never folds a non-ASCII letter into ASCII", () => {
    expect(foldWindowsName("lıb")).toBe("LıB");
    expect(foldWindowsName("ſys")).toBe("ſYS");
  });
});

describe("isWithin compares names as NTFS does", () => {
  it("keeps a KELVIN SIGN spelling of kubelet outside the kubelet root", () => {
    // JavaScript's toLowerCase() maps U+212A to "k"; NTFS sees two different names.
    expect(isWithin("C:\\var\\lib\\\u212aubelet\\pods", "C:\\var\\lib\\kubelet", "windows")).toBe(
      false,
    );
    expect(isWithin("C:\\var\\lib\\\u212aubelet", "C:\\var\\lib\\kubelet", "windows")).toBe(false);
  });

  it("keeps look-alikes and multi-letter mappings apart", () => {
    expect(isWithin("C:\\var\\lıb\\kubelet", "C:\\var\\lib\\kubelet", "windows")).toBe(false);
    expect(isWithin("C:\\STRASSE\\a", "C:\\straße", "windows")).toBe(false);
    expect(isWithin("C:\\ÜBER\\a", "C:\\über", "windows")).toBe(true);
  });
});
