import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Filesystem } from "../src/index.js";

let dir: string;
let root: string;
let fs: Filesystem;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "csi-sandbox-")));
  root = join(dir, "kubelet");
  mkdirSync(join(root, "pods"), { recursive: true });
  mkdirSync(join(dir, "outside"));
  writeFileSync(join(dir, "outside", "precious"), "x");
  fs = new Filesystem({ pathStyle: "posix", allowedRoots: [root] });
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const denied = { code: "PERMISSION_DENIED" };

describe("allowedRoots", () => {
  it("allows paths inside a root and the root itself", async () => {
    await fs.mkdir({ path: join(root, "pods", "a") });
    expect(await fs.pathExists({ path: root })).toEqual({ exists: true });
  });

  it("denies paths outside, including a sibling that shares the prefix", async () => {
    await expect(fs.mkdir({ path: join(dir, "outside", "x") })).rejects.toMatchObject(denied);
    await expect(fs.mkdir({ path: `${root}X` })).rejects.toMatchObject(denied);
    await expect(fs.pathExists({ path: dir })).rejects.toMatchObject(denied);
  });

  it("rejects traversal before it can be resolved", async () => {
    await expect(fs.mkdir({ path: `${root}/pods/../../outside/x` })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("denies going through a link that leads outside", async () => {
    symlinkSync(join(dir, "outside"), join(root, "pods", "escape"));
    await expect(fs.mkdir({ path: join(root, "pods", "escape", "new") })).rejects.toMatchObject(
      denied,
    );
    await expect(fs.rmdirContents({ path: join(root, "pods", "escape") })).rejects.toMatchObject(
      denied,
    );
    await expect(
      fs.createSymlink({ sourcePath: join(dir, "outside"), targetPath: join(root, "pods", "l2") }),
    ).rejects.toMatchObject(denied);
    // Removing the link itself stays inside the root, and leaves its target alone.
    await fs.rmdir({ path: join(root, "pods", "escape"), force: true });
    expect(realpathSync(join(dir, "outside", "precious"))).toBeTruthy();
  });

  it("links a pod path to a staging path that is itself a link out of the root", async () => {
    // On the simulator a mounted volume (and on Windows an SMB staging link) points outside.
    const staging = join(root, "plugins", "globalmount");
    mkdirSync(join(root, "plugins"), { recursive: true });
    symlinkSync(join(dir, "outside"), staging);
    await fs.createSymlink({ sourcePath: staging, targetPath: join(root, "pods", "mount") });
    // Acting through the new link is still checked, and denied.
    await expect(fs.rmdirContents({ path: join(root, "pods", "mount") })).rejects.toMatchObject(
      denied,
    );
    await fs.rmdir({ path: join(root, "pods", "mount"), force: true });
    expect(realpathSync(join(dir, "outside", "precious"))).toBeTruthy();
  });

  it("accepts a root reached through a link", async () => {
    symlinkSync(root, join(dir, "kubelet-link"));
    const viaLink = new Filesystem({
      pathStyle: "posix",
      allowedRoots: [join(dir, "kubelet-link")],
    });
    await viaLink.mkdir({ path: join(dir, "kubelet-link", "pods", "b") });
  });

  it("holds case tricks, mixed separators, long and UNC forms on Windows", () => {
    const win = new Filesystem({ pathStyle: "windows", allowedRoots: ["C:\\var\\lib\\kubelet"] });
    return Promise.all([
      expect(win.mkdir({ path: "C:\\var\\lib\\kubeletX\\a" })).rejects.toMatchObject(denied),
      expect(win.mkdir({ path: "C:\\var\\lib\\kubelet/..\\..\\x" })).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      }),
      expect(win.mkdir({ path: "\\\\server\\share\\var\\lib\\kubelet" })).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      }),
      expect(win.mkdir({ path: "D:\\var\\lib\\kubelet\\x" })).rejects.toMatchObject(denied),
    ]);
  });

  it("rejects an invalid root at construction", () => {
    expect(() => new Filesystem({ pathStyle: "posix", allowedRoots: ["relative"] })).toThrow(
      /absolute/,
    );
  });
});
