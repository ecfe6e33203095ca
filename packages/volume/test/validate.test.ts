import { isCsiProxyError } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import {
  pathKey,
  validateFileSystem,
  validateLabel,
  validateSizeBytes,
  validateTargetPath,
  validateUint32,
  parseVolumeId,
  volumeKey,
} from "../src/validate.js";
import { volumeA } from "./fake-host.js";
import * as publicApi from "../src/index.js";

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return isCsiProxyError(error) ? error.code : "not a CsiProxyError";
  }
  return undefined;
}

describe("parseVolumeId", () => {
  it("is exported for gRPC handlers as the very check the methods run", () => {
    expect(publicApi.parseVolumeId).toBe(parseVolumeId);
    expect(codeOf(() => publicApi.parseVolumeId("C:\\"))).toBe("INVALID_ARGUMENT");
  });

  it("accepts the UniqueId form in any letter case", () => {
    expect(parseVolumeId(volumeA)).toBe(volumeA);
    expect(parseVolumeId(volumeA.toUpperCase().replace("VOLUME", "Volume"))).toBeTruthy();
  });

  it.each([
    "",
    "-1",
    "Volume{452e318a-5cde-421e-9831-b9853c521012}",
    "\\\\?\\Volume{452e318a-5cde-421e-9831-b9853c521012}",
    "\\\\.\\Volume{452e318a-5cde-421e-9831-b9853c521012}\\",
    "\\\\?\\Volume{452e318a-5cde-421e-9831-b9853c52101}\\",
    "\\\\?\\Volume{452e318a-5cde-421e-9831-b9853c521012}\\'; Remove-Item C:\\ #",
    "\\\\?\\Volume{*}\\",
  ])("rejects %j", (id) => {
    expect(codeOf(() => parseVolumeId(id))).toBe("INVALID_ARGUMENT");
  });

  it("rejects non-strings", () => {
    expect(codeOf(() => parseVolumeId(undefined))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => parseVolumeId(42))).toBe("INVALID_ARGUMENT");
  });
});

describe("validateTargetPath (windows)", () => {
  it.each([
    ["C:\\var\\lib\\kubelet\\plugins\\mount-1", "C:\\var\\lib\\kubelet\\plugins\\mount-1"],
    ["d:\\", "D:\\"],
    ["C:\\mnt\\with space\\and-dash", "C:\\mnt\\with space\\and-dash"],
    ["\\\\?\\C:\\very\\long\\path", "C:\\very\\long\\path"],
  ])("accepts %j as %j", (path, normalized) => {
    expect(validateTargetPath(path, "windows")).toBe(normalized);
  });

  it.each([
    "",
    "var\\lib",
    "C:relative",
    "/var/lib/kubelet",
    "\\\\server\\share\\x",
    "\\\\?\\UNC\\server\\share",
    "C:\\bad|pipe",
    "C:\\bad?name",
    "C:\\a:b",
    "C:\\nul\u0000byte",
    "C:\\new\nline",
  ])("rejects %j", (path) => {
    expect(codeOf(() => validateTargetPath(path, "windows"))).toBe("INVALID_ARGUMENT");
  });
});

describe("validateTargetPath (posix)", () => {
  it("accepts absolute paths, including odd characters", () => {
    expect(validateTargetPath("/tmp/a b/$(x)'\"", "posix")).toBe("/tmp/a b/$(x)'\"");
  });

  it.each(["", "tmp/x", "C:\\x", "/tmp/\u0000"])("rejects %j", (path) => {
    expect(codeOf(() => validateTargetPath(path, "posix"))).toBe("INVALID_ARGUMENT");
  });
});

describe("numbers and options", () => {
  it("validates uint32 fields", () => {
    expect(validateUint32(0, "diskNumber")).toBe(0);
    expect(validateUint32(4294967295, "diskNumber")).toBe(4294967295);
    for (const bad of [-1, 1.5, 4294967296, Number.NaN, "1"]) {
      expect(codeOf(() => validateUint32(bad, "diskNumber"))).toBe("INVALID_ARGUMENT");
    }
  });

  it("validates sizes: integers ≥ 0 as number or bigint", () => {
    expect(validateSizeBytes(0)).toBe(0n);
    expect(validateSizeBytes(1073741824)).toBe(1073741824n);
    expect(validateSizeBytes(2n ** 60n)).toBe(2n ** 60n);
    for (const bad of [-1, -1n, 0.5, 2 ** 60, 2n ** 63n, "1"]) {
      expect(codeOf(() => validateSizeBytes(bad))).toBe("INVALID_ARGUMENT");
    }
  });

  it("normalises file systems and checks labels", () => {
    expect(validateFileSystem(undefined)).toBe("NTFS");
    expect(validateFileSystem("refs")).toBe("ReFS");
    expect(validateFileSystem("ntfs")).toBe("NTFS");
    expect(codeOf(() => validateFileSystem("FAT32"))).toBe("INVALID_ARGUMENT");
    expect(validateLabel(undefined)).toBe("");
    expect(validateLabel("data 'quoted' $(x)")).toBe("data 'quoted' $(x)");
    expect(codeOf(() => validateLabel("x".repeat(33)))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => validateLabel("tab\there"))).toBe("INVALID_ARGUMENT");
  });

  it.each([
    ["DEL", "data\u007f"],
    ["a C1 control", "data\u0085"],
    ["LINE SEPARATOR", "data\u2028x"],
    ["PARAGRAPH SEPARATOR", "data\u2029x"],
  ])("refuses a label with %s", (_, label) => {
    expect(codeOf(() => validateLabel(label))).toBe("INVALID_ARGUMENT");
  });

  it("keeps NTFS labels of 32 characters, with characters only FAT forbids", () => {
    expect(validateLabel("x".repeat(32))).toBe("x".repeat(32));
    expect(validateLabel("a.b,c;d:e+f=g[h]<i>")).toBe("a.b,c;d:e+f=g[h]<i>");
  });
});

describe("lock keys", () => {
  it("compare Windows paths case-insensitively, without \\\\?\\ or trailing separators", () => {
    const keys = ["C:\\Mnt\\X", "c:\\mnt\\x\\", "\\\\?\\C:\\MNT\\x", "C:/mnt/x"].map((p) =>
      pathKey(p, "windows"),
    );
    expect(new Set(keys).size).toBe(1);
    expect(pathKey("C:\\mnt\\y", "windows")).not.toBe(keys[0]);
  });

  it("keep POSIX paths case-sensitive but ignore trailing and doubled slashes", () => {
    expect(pathKey("/tmp/x/", "posix")).toBe(pathKey("/tmp//x", "posix"));
    expect(pathKey("/tmp/X", "posix")).not.toBe(pathKey("/tmp/x", "posix"));
    expect(pathKey("/", "posix")).toBe("path:/");
  });

  it("compare volume ids case-insensitively", () => {
    expect(volumeKey(volumeA)).toBe(volumeKey(volumeA.toUpperCase()));
  });
});
