// A confined walk on a Windows host classifies each name by its reparse data (issue #33 item 1):
// a volume mount point is passed only when `boundaries.volume` allows that volume, a junction
// to a device path never, and `pin` links to where a source finally leads (item 2).
import { describe, expect, it } from "vitest";
import { Filesystem, type Boundaries } from "../src/index.js";
import { MemoryWindowsHost, type Entry } from "./memory-host.js";

const mine = "Volume{11111111-0000-4000-8000-111111111111}";
const theirs = "Volume{22222222-0000-4000-8000-222222222222}";
const plugin = "C:\\var\\lib\\kubelet\\plugins\\a";
const staging = `${plugin}\\globalmount`;
const pod = "C:\\var\\lib\\kubelet\\pods\\uid\\volumes\\v";

function setup(extra: Record<string, Entry> = {}) {
  const host = new MemoryWindowsHost({
    "C:\\": { kind: "dir" },
    "C:\\var": { kind: "dir" },
    "C:\\var\\lib": { kind: "dir" },
    "C:\\var\\lib\\kubelet": { kind: "dir" },
    "C:\\var\\lib\\kubelet\\plugins": { kind: "dir" },
    [plugin]: { kind: "dir" },
    [staging]: { kind: "mount", volume: mine },
    [`${staging}\\data`]: { kind: "file" },
    "C:\\var\\lib\\kubelet\\pods": { kind: "dir" },
    "C:\\var\\lib\\kubelet\\pods\\uid": { kind: "dir" },
    "C:\\var\\lib\\kubelet\\pods\\uid\\volumes": { kind: "dir" },
    [pod]: { kind: "dir" },
    ...extra,
  });
  const asked: string[] = [];
  const boundaries: Boundaries = {
    volume: (volumeId) => {
      asked.push(volumeId);
      return Promise.resolve(volumeId === `\\\\?\\${mine}\\`);
    },
  };
  const fs = new Filesystem({
    host,
    pathStyle: "windows",
    allowedRoots: ["C:\\var\\lib\\kubelet"],
  });
  return { host, fs, asked, mineOnly: fs.confine([plugin, pod], boundaries) };
}

describe("a confined walk past a volume mount point", () => {
  it("passes the caller's own volume, and asks about it", async () => {
    const { mineOnly, asked, host } = setup();
    expect(await mineOnly.pathExists({ path: `${staging}\\data` })).toEqual({ exists: true });
    await mineOnly.mkdir({ path: `${staging}\\made` });
    expect(host.has(`${staging}\\made`)).toBe(true);
    expect(asked).toEqual([`\\\\?\\${mine}\\`, `\\\\?\\${mine}\\`]);
  });

  it("refuses another's volume mounted inside the roots, for every method that walks it", async () => {
    const mnt = `${plugin}\\mnt`;
    const { mineOnly, host } = setup({
      [mnt]: { kind: "mount", volume: theirs },
      [`${mnt}\\secret`]: { kind: "file" },
    });
    const denied = { code: "PERMISSION_DENIED" };
    await expect(mineOnly.pathExists({ path: `${mnt}\\secret` })).rejects.toMatchObject(denied);
    await expect(mineOnly.mkdir({ path: `${mnt}\\x` })).rejects.toMatchObject(denied);
    await expect(mineOnly.rmdirContents({ path: mnt })).rejects.toMatchObject(denied);
    await expect(mineOnly.rmdir({ path: `${mnt}\\secret` })).rejects.toMatchObject(denied);
    await expect(
      mineOnly.createSymlink({ sourcePath: mnt, targetPath: `${pod}\\m`, pin: true }),
    ).rejects.toMatchObject(denied);
    expect(host.has(`${mnt}\\secret`)).toBe(true);
    expect(host.has(`${mnt}\\x`)).toBe(false);
    // The name itself is the caller's: looked at and removed, the volume's files kept.
    expect(await mineOnly.isSymlink({ path: mnt })).toEqual({ isSymlink: true });
    await mineOnly.rmdir({ path: mnt });
    expect(host.unmounted.get(theirs)?.has("secret")).toBe(true);
  });

  it("refuses a junction to a device path whatever the boundaries say", async () => {
    const dev = `${plugin}\\dev`;
    const { fs, mineOnly } = setup({
      [dev]: { kind: "device", device: "HarddiskVolume3" },
      [`${dev}\\f`]: { kind: "file" },
    });
    for (const view of [fs, mineOnly]) {
      await expect(view.pathExists({ path: `${dev}\\f` })).rejects.toMatchObject({
        code: "PERMISSION_DENIED",
      });
    }
  });

  it("follows a volume mount point as a folder without boundaries, as upstream does", async () => {
    const mnt = `${plugin}\\mnt`;
    const { fs } = setup({
      [mnt]: { kind: "mount", volume: theirs },
      [`${mnt}\\f`]: { kind: "file" },
    });
    expect(await fs.pathExists({ path: `${mnt}\\f` })).toEqual({ exists: true });
  });
});

describe("createSymlink with pin", () => {
  it("links to the volume's GUID path, so renaming the staging name changes nothing", async () => {
    const { mineOnly, host } = setup();
    await mineOnly.createSymlink({ sourcePath: staging, targetPath: `${pod}\\mount`, pin: true });
    expect(await host.readlink(`${pod}\\mount`)).toBe(`\\\\?\\${mine}\\`);
    // A retry converges on the link already there.
    await mineOnly.createSymlink({ sourcePath: staging, targetPath: `${pod}\\mount`, pin: true });
  });

  it("links below a volume to the same names below its GUID path", async () => {
    const { mineOnly, host } = setup({ [`${staging}\\sub`]: { kind: "dir" } });
    await mineOnly.createSymlink({
      sourcePath: `${staging}\\sub`,
      targetPath: `${pod}\\mount`,
      pin: true,
    });
    expect(await host.readlink(`${pod}\\mount`)).toBe(`\\\\?\\${mine}\\sub`);
  });

  it("links an SMB mapping's link to the share, when the share boundary allows it", async () => {
    const link = `${plugin}\\smb`;
    const layout: Record<string, Entry> = { [link]: { kind: "link", target: "\\\\srv\\share\\d" } };
    const { host, fs } = setup(layout);
    const seen: unknown[] = [];
    const shares = fs.confine([plugin, pod], {
      share: (remotePath, via) => {
        seen.push({ remotePath, via });
        return Promise.resolve(true);
      },
    });
    await shares.createSymlink({ sourcePath: link, targetPath: `${pod}\\mount`, pin: true });
    expect(await host.readlink(`${pod}\\mount`)).toBe("\\\\srv\\share\\d");
    expect(seen).toEqual([
      { remotePath: "\\\\srv\\share\\d", via: { path: link, pastVolume: false } },
    ]);
    // Without a share boundary no walk passes a share.
    const { fs: other } = setup(layout);
    await expect(
      other
        .confine([plugin, pod])
        .createSymlink({ sourcePath: link, targetPath: `${pod}\\m2`, pin: true }),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
  });

  it("says a link to a share inside a mounted volume lies past a volume", async () => {
    const link = `${staging}\\smb`;
    const { fs } = setup({ [link]: { kind: "link", target: "\\\\srv\\share" } });
    const seen: boolean[] = [];
    const view = fs.confine([plugin, pod], {
      share: (_remote, via) => {
        seen.push(via.pastVolume);
        return Promise.resolve(!via.pastVolume);
      },
    });
    await expect(
      view.createSymlink({ sourcePath: link, targetPath: `${pod}\\mount`, pin: true }),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    expect(seen).toEqual([true]);
  });

  it("refuses a plain folder, whose name the caller could replace", async () => {
    const { mineOnly, host } = setup({ [`${plugin}\\plain`]: { kind: "dir" } });
    await expect(
      mineOnly.createSymlink({
        sourcePath: `${plugin}\\plain`,
        targetPath: `${pod}\\m`,
        pin: true,
      }),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    expect(host.has(`${pod}\\m`)).toBe(false);
    // Without pin, the link records the name, as upstream's does.
    await mineOnly.createSymlink({ sourcePath: `${plugin}\\plain`, targetPath: `${pod}\\m` });
    expect(await host.readlink(`${pod}\\m`)).toBe(`${plugin}\\plain`);
  });
});
