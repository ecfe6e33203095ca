import { describe, expect, it } from "vitest";
import { checkPathWithinRoots, Filesystem } from "../src/index.js";
import { MemoryWindowsHost } from "./memory-host.js";

const root = "C:\\var\\lib\\kubelet";

function setup() {
  const host = new MemoryWindowsHost({
    "C:\\": { kind: "dir" },
    "C:\\var": { kind: "dir" },
    "C:\\var\\lib": { kind: "dir" },
    [root]: { kind: "dir" },
    [`${root}\\pods`]: { kind: "dir" },
    [`${root}\\pods\\keep.txt`]: { kind: "file" },
    [`${root}\\pods\\to-root`]: { kind: "link", target: root },
  });
  const fs = new Filesystem({ host, pathStyle: "windows", allowedRoots: [root] });
  return { host, fs };
}

const spellings = [
  root,
  "c:\\VAR\\lib\\KUBELET",
  `${root}\\`,
  `${root}\\.`,
  `\\\\?\\${root}`,
  "\\var\\lib\\kubelet",
];

describe("an allowed root belongs to the node", () => {
  it.each(spellings)("rmdir of %s is PERMISSION_DENIED, with or without force", async (path) => {
    const { fs, host } = setup();
    for (const force of [true, false]) {
      await expect(fs.rmdir({ path, force })).rejects.toMatchObject({
        code: "PERMISSION_DENIED",
      });
    }
    expect(host.calls.filter((c) => /^(unlink|rmdir|readdir) /.test(c))).toEqual([]);
    expect(host.has(`${root}\\pods\\keep.txt`)).toBe(true);
  });

  it.each(spellings)("rmdirContents of %s is PERMISSION_DENIED", async (path) => {
    const { fs, host } = setup();
    await expect(fs.rmdirContents({ path })).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    expect(host.calls.filter((c) => /^(unlink|rmdir|readdir) /.test(c))).toEqual([]);
  });

  it("refuses rmdirContents through a link that leads to the root", async () => {
    const { fs, host } = setup();
    await expect(fs.rmdirContents({ path: `${root}\\pods\\to-root` })).rejects.toMatchObject({
      code: "PERMISSION_DENIED",
    });
    expect(host.has(`${root}\\pods\\keep.txt`)).toBe(true);
  });

  it("still removes a link to the root as a link, and folders below the root", async () => {
    const { fs, host } = setup();
    await fs.rmdir({ path: `${root}\\pods\\to-root` });
    expect(host.has(`${root}\\pods\\to-root`)).toBe(false);
    await fs.rmdir({ path: `${root}\\pods`, force: true });
    expect(host.has(`${root}\\pods`)).toBe(false);
    expect(host.has(root)).toBe(true);
  });
});

describe("checkPathWithinRoots", () => {
  const windows = { pathStyle: "windows" } as const;

  it("returns the normalised path of a path inside a root", () => {
    expect(checkPathWithinRoots("c:\\VAR\\lib\\kubelet\\pods\\x\\", [root], windows)).toBe(
      "C:\\VAR\\lib\\kubelet\\pods\\x",
    );
    expect(checkPathWithinRoots(`\\\\?\\${root}\\plugins`, [root], windows)).toBe(
      `${root}\\plugins`,
    );
  });

  it.each([
    "C:\\var\\lib\\kubeletX\\pods",
    "C:\\var\\lib",
    "D:\\var\\lib\\kubelet\\pods",
    "C:\\var\\lib\\\u212aubelet\\pods",
  ])("refuses %s with PERMISSION_DENIED", (path) => {
    expect(() => checkPathWithinRoots(path, [root], windows)).toThrow(
      expect.objectContaining({ code: "PERMISSION_DENIED" }),
    );
  });

  it.each([
    "",
    "relative\\path",
    "C:\\var\\lib\\kubelet\\a:b",
    "C:\\var\\lib\\kubelet\\..\\other",
    42,
  ])("refuses a malformed path %j with INVALID_ARGUMENT", (path) => {
    expect(() => checkPathWithinRoots(path, [root], windows)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });

  it("refuses an empty list of roots rather than allowing everything", () => {
    expect(() => checkPathWithinRoots(`${root}\\pods`, [], windows)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});
