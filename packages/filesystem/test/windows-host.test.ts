import { describe, expect, it } from "vitest";
import { Filesystem } from "../src/index.js";
import { MemoryWindowsHost } from "./memory-host.js";

const volume = "Volume{11111111-2222-3333-4444-555555555555}";

function setup() {
  const host = new MemoryWindowsHost({
    "C:\\": { kind: "dir" },
    "C:\\var": { kind: "dir" },
    "C:\\var\\lib": { kind: "dir" },
    "C:\\var\\lib\\kubelet": { kind: "dir" },
    "C:\\var\\lib\\kubelet\\pods": { kind: "dir" },
    "C:\\var\\lib\\kubelet\\pods\\mnt": { kind: "mount", volume },
    "C:\\var\\lib\\kubelet\\pods\\mnt\\data.txt": { kind: "file" },
    "C:\\var\\lib\\kubelet\\pods\\file.txt": { kind: "file" },
  });
  const fs = new Filesystem({
    host,
    pathStyle: "windows",
    allowedRoots: ["C:\\var\\lib\\kubelet"],
  });
  return { host, fs };
}

describe("Windows behaviour through an injected host", () => {
  it("reports a volume mount point as a link, which Node alone cannot see", async () => {
    const { fs } = setup();
    expect(await fs.isSymlink({ path: "C:\\var\\lib\\kubelet\\pods\\mnt" })).toEqual({
      isSymlink: true,
    });
    expect(await fs.isSymlink({ path: "C:\\var\\lib\\kubelet\\pods" })).toEqual({
      isSymlink: false,
    });
  });

  it("rmdirContents removes a mount point folder without entering the volume", async () => {
    const { fs, host } = setup();
    await fs.rmdirContents({ path: "C:\\var\\lib\\kubelet\\pods" });
    expect(host.calls).not.toContain("readdir C:\\var\\lib\\kubelet\\pods\\mnt");
    expect(host.calls).toContain("rmdir C:\\var\\lib\\kubelet\\pods\\mnt");
    expect(host.calls).not.toContain("unlink C:\\var\\lib\\kubelet\\pods\\mnt\\data.txt");
  });

  it("matches allowed roots case-insensitively and normalises drive-less paths", async () => {
    const { fs, host } = setup();
    await fs.mkdir({ path: "c:\\VAR\\Lib\\KUBELET\\pods\\new" });
    await fs.mkdir({ path: "\\var\\lib\\kubelet\\pods\\other" });
    expect(host.calls).toContain("mkdir C:\\VAR\\Lib\\KUBELET\\pods\\new");
    expect(host.calls).toContain("mkdir C:\\var\\lib\\kubelet\\pods\\other");
  });

  it("accepts the \\\\?\\ long form of an allowed path", async () => {
    const { fs } = setup();
    expect(await fs.pathExists({ path: "\\\\?\\C:\\var\\lib\\kubelet\\pods\\file.txt" })).toEqual({
      exists: true,
    });
  });
});
