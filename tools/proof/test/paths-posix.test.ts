import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Filesystem } from "@csi-proxy/filesystem";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outcome } from "./proof-host.js";

/** Every file under `dir`, to show that nothing outside the root changed. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

describe("paths: the allowedRoots sandbox against real links on POSIX", () => {
  let dir: string;
  let root: string;
  let outside: string;
  let fs: Filesystem;

  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "proof-sandbox-")));
    root = join(dir, "kubelet");
    outside = join(dir, "outside");
    mkdirSync(join(root, "pods", "deep"), { recursive: true });
    mkdirSync(join(outside, "data"), { recursive: true });
    writeFileSync(join(outside, "data", "precious"), "x");
    symlinkSync(outside, join(root, "pods", "absolute"));
    symlinkSync("../../outside", join(root, "pods", "relative"));
    symlinkSync("../absolute", join(root, "pods", "deep", "chain"));
    symlinkSync("/", join(root, "pods", "slash"));
    fs = new Filesystem({ pathStyle: "posix", allowedRoots: [root] });
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("denies every method through links that lead out (absolute, relative, chained, /)", async () => {
    const links = fc.constantFrom(
      "pods/absolute",
      "pods/relative",
      "pods/deep/chain",
      "pods/slash",
    );
    const rest = fc.array(fc.constantFrom("data", "precious", "new", ".", "x y", "data/precious"), {
      maxLength: 3,
    });
    const operations: ((path: string) => Promise<unknown>)[] = [
      (path) => fs.mkdir({ path }),
      (path) => fs.rmdir({ path, force: true }),
      (path) => fs.rmdirContents({ path }),
      (path) => fs.pathExists({ path }),
      (path) => fs.isSymlink({ path }),
      (path) => fs.createSymlink({ sourcePath: join(root, "pods"), targetPath: path }),
    ];
    const before = tree(outside);
    await fc.assert(
      fc.asyncProperty(
        links,
        rest,
        fc.constantFrom(...operations),
        async (link, parts, operation) => {
          const path = join(root, link, ...parts);
          // The link itself is inside the root: only paths through it must be denied.
          if (parts.filter((p) => p !== ".").length === 0) return;
          expect(["INVALID_ARGUMENT", "PERMISSION_DENIED"]).toContain(
            await outcome(operation(path)),
          );
        },
      ),
      { numRuns: 200 },
    );
    expect(tree(outside)).toEqual(before);
  });

  it("denies traversal and prefix tricks as written", async () => {
    const tricks = fc.oneof(
      fc.integer({ min: 1, max: 4 }).map((n) => `${root}/pods/${"../".repeat(n)}outside/data`),
      fc.constantFrom(
        `${root}X/pods`,
        `${root}/../outside`,
        `${dir}//outside`,
        `${root.toUpperCase()}/pods`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(tricks, async (path) => {
        expect(["INVALID_ARGUMENT", "PERMISSION_DENIED"]).toContain(
          await outcome(fs.mkdir({ path })),
        );
      }),
      { numRuns: 50 },
    );
  });

  it("still allows work inside the root (so the denials are not blanket)", async () => {
    await fs.mkdir({ path: join(root, "pods", "deep", "ok") });
    expect(await fs.pathExists({ path: join(root, "pods", "deep", "ok") })).toEqual({
      exists: true,
    });
  });
});
