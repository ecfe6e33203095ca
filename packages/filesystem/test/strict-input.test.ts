import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isCsiProxyError } from "@csi-proxy/exec";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Filesystem } from "../src/index.js";

let dir: string;
let root: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "csi-strict-")));
  root = join(dir, "kubelet");
  mkdirSync(join(root, "pods"), { recursive: true });
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function codeOf(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    return isCsiProxyError(error) ? error.code : `untyped: ${String(error)}`;
  }
  return "no error";
}

const methods = [
  "pathExists",
  "pathValid",
  "mkdir",
  "rmdir",
  "rmdirContents",
  "createSymlink",
  "isSymlink",
] as const;

describe("every Filesystem method types a missing request", () => {
  it.each(
    methods.flatMap((method) => [null, undefined, 7, "path", []].map((bad) => [method, bad])),
  )("%s(%j) is INVALID_ARGUMENT", async (method, bad) => {
    const fs = new Filesystem({ pathStyle: "posix" });
    const call = fs[method as (typeof methods)[number]].bind(fs) as (
      r: unknown,
    ) => Promise<unknown>;
    expect(await codeOf(() => call(bad))).toBe("INVALID_ARGUMENT");
  });
});

describe("flags are own fields only", () => {
  it("rmdir does not become recursive through Object.prototype.force", async () => {
    const full = join(root, "pods", "full");
    mkdirSync(full);
    writeFileSync(join(full, "data"), "x");
    const fs = new Filesystem({ pathStyle: "posix" });
    const proto = Object.prototype as Record<string, unknown>;
    proto.force = true;
    try {
      expect(await codeOf(() => fs.rmdir({ path: full }))).toBe("FAILED_PRECONDITION");
    } finally {
      delete proto.force;
    }
    expect(realpathSync(join(full, "data"))).toBeTruthy();
  });
});

describe("with allowedRoots, resolving a path never escapes as a raw Node error", () => {
  it("a link loop is FAILED_PRECONDITION", async () => {
    symlinkSync(join(root, "pods", "b"), join(root, "pods", "a"));
    symlinkSync(join(root, "pods", "a"), join(root, "pods", "b"));
    const fs = new Filesystem({ pathStyle: "posix", allowedRoots: [root] });
    expect(await codeOf(() => fs.mkdir({ path: join(root, "pods", "a", "x") }))).toBe(
      "FAILED_PRECONDITION",
    );
  });

  it("a name longer than the file system takes is INVALID_ARGUMENT", async () => {
    const fs = new Filesystem({ pathStyle: "posix", allowedRoots: [root] });
    const long = join(root, "pods", "n".repeat(300), "x");
    expect(await codeOf(() => fs.mkdir({ path: long }))).toBe("INVALID_ARGUMENT");
  });
});
