import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Filesystem } from "../src/index.js";

let dir: string;
let fs: Filesystem;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "csi-fs-"));
  fs = new Filesystem({ pathStyle: "posix" });
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("pathExists", () => {
  it("sees files, directories and dangling links, and not missing paths", async () => {
    writeFileSync(join(dir, "f"), "x");
    symlinkSync(join(dir, "gone"), join(dir, "dangling"));
    expect(await fs.pathExists({ path: join(dir, "f") })).toEqual({ exists: true });
    expect(await fs.pathExists({ path: dir })).toEqual({ exists: true });
    expect(await fs.pathExists({ path: join(dir, "dangling") })).toEqual({ exists: true });
    expect(await fs.pathExists({ path: join(dir, "missing") })).toEqual({ exists: false });
    expect(await fs.pathExists({ path: join(dir, "f", "under-a-file") })).toEqual({
      exists: false,
    });
  });

  it("rejects a bad path before touching the disk", async () => {
    await expect(fs.pathExists({ path: "relative" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});

describe("pathValid", () => {
  it("is true when the path resolves and false otherwise, following links", async () => {
    symlinkSync(join(dir, "gone"), join(dir, "dangling"));
    expect(await fs.pathValid({ path: dir })).toEqual({ valid: true });
    expect(await fs.pathValid({ path: join(dir, "dangling") })).toEqual({ valid: false });
    expect(await fs.pathValid({ path: "invalid-remote-path" })).toEqual({ valid: false });
  });

  it("rejects NUL as upstream does", async () => {
    await expect(fs.pathValid({ path: "a\u0000b" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});

describe("responses", () => {
  it("resolves an empty object from every method without result fields, like every other group", async () => {
    const path = join(dir, "a");
    const link = join(dir, "link");
    await expect(fs.mkdir({ path })).resolves.toStrictEqual({});
    await expect(fs.createSymlink({ sourcePath: path, targetPath: link })).resolves.toStrictEqual(
      {},
    );
    await expect(fs.rmdirContents({ path })).resolves.toStrictEqual({});
    await expect(fs.rmdir({ path: link })).resolves.toStrictEqual({});
    await expect(fs.rmdir({ path })).resolves.toStrictEqual({});
    await expect(fs.rmdir({ path, force: true })).resolves.toStrictEqual({});
  });
});

describe("mkdir", () => {
  it("creates parents and is idempotent", async () => {
    const path = join(dir, "a", "b", "c");
    await fs.mkdir({ path });
    await fs.mkdir({ path });
    expect(existsSync(path)).toBe(true);
  });

  it("fails with a typed error when a file is in the way", async () => {
    writeFileSync(join(dir, "file"), "x");
    await expect(fs.mkdir({ path: join(dir, "file", "sub") })).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
    });
  });
});

describe("rmdir", () => {
  it("removes an empty directory, and refuses a missing or non-empty one without force", async () => {
    mkdirSync(join(dir, "empty"));
    await fs.rmdir({ path: join(dir, "empty") });
    expect(existsSync(join(dir, "empty"))).toBe(false);
    await expect(fs.rmdir({ path: join(dir, "empty") })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    mkdirSync(join(dir, "full"));
    writeFileSync(join(dir, "full", "f"), "x");
    await expect(fs.rmdir({ path: join(dir, "full") })).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
    });
  });

  it("with force removes recursively and succeeds when missing", async () => {
    mkdirSync(join(dir, "tree", "deep"), { recursive: true });
    writeFileSync(join(dir, "tree", "deep", "f"), "x");
    await fs.rmdir({ path: join(dir, "tree"), force: true });
    expect(existsSync(join(dir, "tree"))).toBe(false);
    await fs.rmdir({ path: join(dir, "tree"), force: true });
  });

  it("removes a link without touching what it points to", async () => {
    mkdirSync(join(dir, "target"));
    writeFileSync(join(dir, "target", "keep"), "x");
    symlinkSync(join(dir, "target"), join(dir, "link"));
    await fs.rmdir({ path: join(dir, "link"), force: true });
    expect(existsSync(join(dir, "link"))).toBe(false);
    expect(existsSync(join(dir, "target", "keep"))).toBe(true);
  });
});

describe("rmdirContents", () => {
  it("empties the directory and keeps it", async () => {
    mkdirSync(join(dir, "root", "sub"), { recursive: true });
    writeFileSync(join(dir, "root", "sub", "f"), "x");
    writeFileSync(join(dir, "root", "g"), "x");
    await fs.rmdirContents({ path: join(dir, "root") });
    expect(existsSync(join(dir, "root"))).toBe(true);
    expect(readdirSync(join(dir, "root"))).toEqual([]);
  });

  it("never follows a link out of the folder", async () => {
    mkdirSync(join(dir, "root"));
    mkdirSync(join(dir, "outside"));
    writeFileSync(join(dir, "outside", "precious"), "x");
    symlinkSync(join(dir, "outside"), join(dir, "root", "link"));
    await fs.rmdirContents({ path: join(dir, "root") });
    expect(readdirSync(join(dir, "root"))).toEqual([]);
    expect(existsSync(join(dir, "outside", "precious"))).toBe(true);
  });
});

describe("createSymlink and isSymlink", () => {
  it("follows upstream's PathExists scenario: link a pod path to a staging path, then remove both", async () => {
    const stage = join(dir, "stage");
    const pod = join(dir, "pod");
    await fs.mkdir({ path: stage });
    await fs.mkdir({ path: pod });
    await fs.createSymlink({ sourcePath: stage, targetPath: join(pod, "rootvol") });
    expect(await fs.pathExists({ path: join(pod, "rootvol") })).toEqual({ exists: true });
    writeFileSync(join(pod, "rootvol", "through-link"), "x");
    expect(existsSync(join(stage, "through-link"))).toBe(true);
    await fs.rmdir({ path: pod, force: true });
    await fs.rmdir({ path: stage, force: true });
    expect(await fs.pathExists({ path: pod })).toEqual({ exists: false });
    expect(await fs.pathExists({ path: stage })).toEqual({ exists: false });
  });

  it("follows upstream's IsMount scenario", async () => {
    await expect(fs.isSymlink({ path: join(dir, "missing") })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    mkdirSync(join(dir, "plain"));
    expect(await fs.isSymlink({ path: join(dir, "plain") })).toEqual({ isSymlink: false });
    await fs.createSymlink({ sourcePath: join(dir, "plain"), targetPath: join(dir, "link") });
    expect(await fs.isSymlink({ path: join(dir, "link") })).toEqual({ isSymlink: true });
    rmSync(join(dir, "plain"), { recursive: true });
    expect(await fs.isSymlink({ path: join(dir, "link") })).toEqual({ isSymlink: false });
  });

  it("refuses an existing link path and a missing source", async () => {
    mkdirSync(join(dir, "src"));
    mkdirSync(join(dir, "taken"));
    await expect(
      fs.createSymlink({ sourcePath: join(dir, "src"), targetPath: join(dir, "taken") }),
    ).rejects.toMatchObject({
      code: "ALREADY_EXISTS",
    });
    await expect(
      fs.createSymlink({ sourcePath: join(dir, "nope"), targetPath: join(dir, "l") }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("concurrency", () => {
  it("serialises work on one path and keeps the result consistent", async () => {
    const path = join(dir, "busy");
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? fs.mkdir({ path }) : fs.rmdir({ path, force: true }),
      ),
    );
    // The last operation queued on the path (a removal) decides the outcome.
    expect(existsSync(path)).toBe(false);
  });
});
