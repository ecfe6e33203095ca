import { mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeSmbLinkHost, Smb } from "../src/index.js";
import { FakeSmbHost } from "./fakes.js";

let dir: string;
const links = createNodeSmbLinkHost();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "csi-smb-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("the Node link host", () => {
  it("tells missing paths, links, empty and full folders and files apart", async () => {
    mkdirSync(join(dir, "empty"));
    mkdirSync(join(dir, "full"));
    writeFileSync(join(dir, "full", "f"), "x");
    writeFileSync(join(dir, "file"), "x");
    symlinkSync(join(dir, "gone"), join(dir, "link"));
    expect(await links.readLink(join(dir, "missing"))).toEqual({ kind: "missing" });
    expect(await links.readLink(join(dir, "empty"))).toEqual({ kind: "directory", empty: true });
    expect(await links.readLink(join(dir, "full"))).toEqual({ kind: "directory", empty: false });
    expect(await links.readLink(join(dir, "file"))).toEqual({ kind: "file" });
    expect(await links.readLink(join(dir, "link"))).toEqual({
      kind: "link",
      target: join(dir, "gone"),
    });
  });

  it("creates the link with its parent folders, and removes only empty folders", async () => {
    const path = join(dir, "pods", "uid", "mount");
    await links.createLink(path, "\\\\srv\\share\\pv\\");
    expect(readlinkSync(path)).toBe("\\\\srv\\share\\pv\\");
    expect(await links.readLink(path)).toEqual({ kind: "link", target: "\\\\srv\\share\\pv\\" });
    await expect(links.createLink(path, "\\\\srv\\other\\")).rejects.toMatchObject({
      code: "EEXIST",
    });
    mkdirSync(join(dir, "full"));
    writeFileSync(join(dir, "full", "f"), "x");
    await expect(links.removeEmptyDirectory(join(dir, "full"))).rejects.toMatchObject({
      code: "ENOTEMPTY",
    });
    mkdirSync(join(dir, "empty"));
    await links.removeEmptyDirectory(join(dir, "empty"));
    expect(await links.readLink(join(dir, "empty"))).toEqual({ kind: "missing" });
  });
});

describe("Smb on the Node link host", () => {
  it("links, accepts the same link again, replaces an empty folder and refuses another target", async () => {
    const smb = new Smb({ host: new FakeSmbHost(), pathStyle: "posix" });
    const mount = join(dir, "pv", "mount");
    const first = await smb.newSmbGlobalMapping({
      remotePath: "\\\\srv\\share\\pv",
      localPath: mount,
    });
    expect(first).toEqual({ mapping: "created", link: "created" });
    expect(readlinkSync(mount)).toBe("\\\\srv\\share\\pv\\");
    const again = await smb.newSmbGlobalMapping({
      remotePath: "//SRV/share/pv/",
      localPath: mount,
    });
    expect(again).toEqual({ mapping: "reused", link: "existing" });
    await expect(
      smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share\\other", localPath: mount }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    mkdirSync(join(dir, "empty"));
    const replaced = await smb.newSmbGlobalMapping({
      remotePath: "\\\\srv\\share",
      localPath: join(dir, "empty"),
    });
    expect(replaced.link).toBe("created");
    expect(readlinkSync(join(dir, "empty"))).toBe("\\\\srv\\share\\");
  });
});
