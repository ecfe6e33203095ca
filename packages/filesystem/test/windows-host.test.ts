import { describe, expect, it } from "vitest";
import { Filesystem } from "../src/index.js";
import { type Entry, MemoryWindowsHost } from "./memory-host.js";

const volume = "Volume{11111111-2222-3333-4444-555555555555}";
const pods = "C:\\var\\lib\\kubelet\\pods";
const staging = `${pods}\\mnt`;

function setup(mount: Entry = { kind: "mount", volume }) {
  const host = new MemoryWindowsHost({
    "C:\\": { kind: "dir" },
    "C:\\var": { kind: "dir" },
    "C:\\var\\lib": { kind: "dir" },
    "C:\\var\\lib\\kubelet": { kind: "dir" },
    [pods]: { kind: "dir" },
    [staging]: mount,
    [`${staging}\\data.txt`]: { kind: "file" },
    [`${staging}\\db`]: { kind: "dir" },
    [`${staging}\\db\\table`]: { kind: "file" },
    [`${pods}\\file.txt`]: { kind: "file" },
    [`${pods}\\uid`]: { kind: "dir" },
    [`${pods}\\uid\\volumes`]: { kind: "dir" },
  });
  const fs = new Filesystem({
    host,
    pathStyle: "windows",
    allowedRoots: ["C:\\var\\lib\\kubelet"],
  });
  return { host, fs };
}

const volumeFiles = [staging, `${staging}\\data.txt`, `${staging}\\db`, `${staging}\\db\\table`];

describe("a volume mounted on a folder (the CSI staging case)", () => {
  it("is a link for isSymlink, though lstat calls it a directory", async () => {
    const { fs } = setup();
    expect(await fs.isSymlink({ path: staging })).toEqual({ isSymlink: true });
    expect(await fs.isSymlink({ path: pods })).toEqual({ isSymlink: false });
    expect(await fs.isSymlink({ path: `${staging}\\db` })).toEqual({ isSymlink: false });
  });

  it("keeps every file when a parent is removed with force, and nothing else is removed", async () => {
    const { fs, host } = setup();
    await expect(fs.rmdir({ path: pods, force: true })).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
      message: expect.stringContaining(staging) as unknown,
    });
    for (const path of volumeFiles) expect(host.has(path)).toBe(true);
    expect(host.has(`${pods}\\file.txt`)).toBe(true);
    expect(host.calls.filter((c) => /^(unlink|rmdir) /.test(c))).toEqual([]);
  });

  it("keeps every file when rmdirContents runs on a parent", async () => {
    const { fs, host } = setup();
    await expect(fs.rmdirContents({ path: pods })).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
    });
    for (const path of volumeFiles) expect(host.has(path)).toBe(true);
    expect(host.calls).not.toContain(`readdir ${staging}`);
  });

  // Upstream's Rmdir is os.RemoveAll / os.Remove, whose RemoveDirectoryW removes a junction and
  // leaves its target alone; azuredisk's host-process Unmount is Rmdir(staging, force).
  it.each([true, false])(
    "removes only the mount folder of the mount point itself (force: %s), keeping the volume's files",
    async (force) => {
      const { fs, host } = setup();
      await fs.rmdir({ path: staging, force });
      expect(host.has(staging)).toBe(false);
      expect([...(host.unmounted.get(volume)?.keys() ?? [])].sort()).toEqual([
        "data.txt",
        "db",
        "db\\table",
      ]);
      expect(host.calls.filter((c) => /^(unlink|rmdir|readdir) /.test(c))).toEqual([
        `readdir ${pods}`,
        `rmdir ${staging}`,
      ]);
      expect(host.has(`${pods}\\file.txt`)).toBe(true);
    },
  );

  it("is found by the listing even when the volume shares the system volume's serial number", async () => {
    const { fs, host } = setup({ kind: "mount", volume, serial: 0x1c2a_7e41 });
    await expect(fs.rmdir({ path: pods, force: true })).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
    });
    for (const path of volumeFiles) expect(host.has(path)).toBe(true);
  });

  it("empties the mounted volume when rmdirContents is asked for the mount point itself", async () => {
    const { fs, host } = setup();
    await fs.rmdirContents({ path: staging });
    expect(host.has(staging)).toBe(true);
    expect(host.has(`${staging}\\data.txt`)).toBe(false);
    expect(host.has(`${staging}\\db\\table`)).toBe(false);
  });

  it("removes the rest of a tree once the volume is unmounted", async () => {
    const { fs, host } = setup({ kind: "dir" });
    await fs.rmdir({ path: pods, force: true });
    expect(host.has(pods)).toBe(false);
  });
});

describe("links and junctions inside a tree", () => {
  function linked() {
    const host = new MemoryWindowsHost({
      "C:\\": { kind: "dir" },
      "C:\\data": { kind: "dir" },
      "C:\\data\\keep.txt": { kind: "file" },
      "C:\\pods": { kind: "dir" },
      "C:\\pods\\junction": { kind: "junction", target: "C:\\data" },
      "C:\\pods\\link": { kind: "link", target: "C:\\data" },
    });
    return { host, fs: new Filesystem({ host, pathStyle: "windows" }) };
  }

  it("removes the links themselves and never their targets' files", async () => {
    const { fs, host } = linked();
    await fs.rmdir({ path: "C:\\pods", force: true });
    expect(host.has("C:\\pods")).toBe(false);
    expect(host.has("C:\\data\\keep.txt")).toBe(true);
    expect(host.calls).not.toContain("readdir C:\\pods\\junction");
  });

  it("reports a junction to a drive path as a link", async () => {
    const { fs } = linked();
    expect(await fs.isSymlink({ path: "C:\\pods\\junction" })).toEqual({ isSymlink: true });
  });
});

describe("Windows path rules through an injected host", () => {
  it("matches allowed roots case-insensitively and normalises drive-less paths", async () => {
    const { fs, host } = setup();
    await fs.mkdir({ path: "c:\\VAR\\Lib\\KUBELET\\pods\\new" });
    await fs.mkdir({ path: "\\var\\lib\\kubelet\\pods\\other" });
    // It acts where the walk found the folders, in their own case.
    expect(host.calls).toContain("mkdir C:\\var\\lib\\kubelet\\pods\\new");
    expect(host.calls).toContain("mkdir C:\\var\\lib\\kubelet\\pods\\other");
  });

  it("refuses a KELVIN SIGN spelling of the kubelet root, which NTFS sees as another folder", async () => {
    const { fs, host } = setup();
    await expect(fs.mkdir({ path: "C:\\var\\lib\\\u212aubelet\\pods\\x" })).rejects.toMatchObject({
      code: "PERMISSION_DENIED",
    });
    expect(host.calls.some((c) => c.startsWith("mkdir"))).toBe(false);
  });

  it("accepts the \\\\?\\ long form of an allowed path", async () => {
    const { fs } = setup();
    expect(await fs.pathExists({ path: `\\\\?\\${pods}\\file.txt` })).toEqual({ exists: true });
  });
});
