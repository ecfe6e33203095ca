import { describe, expect, it } from "vitest";
import { parseRemotePath } from "../src/index.js";

describe("parseRemotePath", () => {
  it.each([
    ["\\\\hostname\\path", "\\\\hostname\\path", "\\\\hostname\\path"],
    ["\\\\hostname\\path\\", "\\\\hostname\\path", "\\\\hostname\\path"],
    ["\\\\hostname\\path\\subpath", "\\\\hostname\\path", "\\\\hostname\\path\\subpath"],
    ["//Server/Share/Dir/Sub/", "\\\\server\\share", "\\\\Server\\Share\\Dir\\Sub"],
    ["\\\\SERVER\\Share\\\\dir\\\\", "\\\\server\\share", "\\\\SERVER\\Share\\dir"],
    ["\\\\10.0.0.5\\c$", "\\\\10.0.0.5\\c$", "\\\\10.0.0.5\\c$"],
    [
      "\\\\fs1.contoso.com\\My Share\\a b",
      "\\\\fs1.contoso.com\\my share",
      "\\\\fs1.contoso.com\\My Share\\a b",
    ],
    [
      "\\\\fe80--1.ipv6-literal.net\\share",
      "\\\\fe80--1.ipv6-literal.net\\share",
      "\\\\fe80--1.ipv6-literal.net\\share",
    ],
  ])("%s → root %s, path %s", (input, shareRoot, path) => {
    expect(parseRemotePath(input)).toEqual({ shareRoot, path });
  });

  it.each([
    ["", "empty"],
    ["   ", "blank"],
    ["hostname", "no share"],
    ["\\\\hostname", "no share"],
    ["\\\\hostname\\", "no share"],
    ["hostname\\share", "not UNC"],
    ["C:\\share", "a local path"],
    ["\\\\?\\UNC\\srv\\share", "a device path"],
    ["\\\\.\\pipe\\x", "a device path"],
    ["\\\\srv\\share\\..\\other", "a .. segment"],
    ["\\\\srv\\share\\.", "a . segment"],
    ["\\\\srv\\..", "a .. share"],
    ["\\\\..\\share", "a .. server"],
    ["\\\\a..b\\share", "a server with .."],
    ["\\\\srv\\share\\a\u0000b", "NUL"],
    ["\\\\srv\\share\\a\tb", "a tab"],
    ["\\\\srv\\share\u007f", "DEL"],
    ["\\\\srv name\\share", "a space in the server"],
    ["\\\\srv$(calc)\\share", "punctuation in the server"],
    ["\\\\-srv\\share", "a server starting with -"],
    ["\\\\srv\\sh:are", "a colon in the share"],
    ["\\\\srv\\sh*are", "a wildcard in the share"],
    ["\\\\srv\\[share]", "brackets in the share"],
    ["\\\\srv\\ share", "a leading space in the share"],
    [`\\\\srv\\${"s".repeat(81)}`, "a share name over 80 characters"],
    ["\\\\srv\\share\\a?b", "a wildcard in a sub-path"],
    ["\\\\srv\\share\\a|b", "a pipe in a sub-path"],
  ])("rejects %j (%s)", (input) => {
    expect(() => parseRemotePath(input)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });

  it("rejects values that are not strings", () => {
    for (const value of [undefined, null, 1, {}, ["\\\\a\\b"]]) {
      expect(() => parseRemotePath(value)).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }),
      );
    }
  });
});
