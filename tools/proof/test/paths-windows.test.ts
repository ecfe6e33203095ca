import { Filesystem } from "@csi-proxy/filesystem";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryWindowsHost } from "../../../packages/filesystem/test/memory-host.js";
import { outcome } from "./proof-host.js";

const root = "C:\\var\\lib\\kubelet";

/** A node with the kubelet root, a secret folder beside it and a link inside the root that leads there. */
function node(): { host: MemoryWindowsHost; fs: Filesystem } {
  const host = new MemoryWindowsHost({
    "C:\\": { kind: "dir" },
    "C:\\var": { kind: "dir" },
    "C:\\var\\lib": { kind: "dir" },
    [root]: { kind: "dir" },
    [`${root}\\pods`]: { kind: "dir" },
    [`${root}X`]: { kind: "dir" },
    "C:\\secret": { kind: "dir" },
    "C:\\secret\\file": { kind: "file" },
    [`${root}\\pods\\escape`]: { kind: "link", target: "C:\\secret" },
    [`${root}\\pods\\hop`]: { kind: "link", target: `${root}\\pods\\escape` },
  });
  return { host, fs: new Filesystem({ host, pathStyle: "windows", allowedRoots: [root] }) };
}

// Random letter case, so "C:\VAR\Lib" tricks are covered on every form.
const anyCase = (text: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map((flips) =>
    Array.from(text)
      .map((c, i) => (flips[i] === true ? c.toUpperCase() : c.toLowerCase()))
      .join(""),
  );

const separator = fc.constantFrom("\\", "/", "\\\\", "/\\");
const name = fc
  .stringMatching(/^[a-z0-9 .-]{1,8}$/)
  .filter((s) => !/^\.+$/.test(s.trim()) && s.trim() === s);

/** Paths that lead outside the root through a link inside it. */
const throughLinks: fc.Arbitrary<string> = fc
  .tuple(anyCase(`${root}\\pods\\`), fc.constantFrom("escape", "hop"), separator, name)
  .map(([r, link, sep, n]) => `${r}${link}${sep}${n}`);

/** Paths that name something outside the root as written, every way Windows accepts a path. */
const outside: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(anyCase(root), separator, fc.integer({ min: 1, max: 4 }), name)
    .map(
      ([r, sep, ups, n]) =>
        `${r}${sep}${Array.from({ length: ups }, () => "..").join(sep)}${sep}${n}`,
    ),
  fc.tuple(anyCase(`${root}X`), separator, name).map(([r, sep, n]) => `${r}${sep}${n}`),
  fc.tuple(anyCase(root), name).map(([r, n]) => `\\\\?\\${r}\\..\\${n}`),
  fc.tuple(anyCase("C:\\secret"), name).map(([r, n]) => `\\\\?\\${r}\\${n}`),
  fc.tuple(anyCase("\\\\localhost\\C$\\var\\lib\\kubelet"), name).map(([r, n]) => `${r}\\${n}`),
  fc
    .tuple(anyCase("\\\\?\\UNC\\localhost\\C$\\var\\lib\\kubelet"), name)
    .map(([r, n]) => `${r}\\${n}`),
  fc.tuple(anyCase("\\\\.\\C:\\var\\lib\\kubelet"), name).map(([r, n]) => `${r}\\${n}`),
  fc.tuple(anyCase("\\secret"), name).map(([r, n]) => `${r}\\${n}`),
  fc.tuple(anyCase("D:\\var\\lib\\kubelet"), name).map(([r, n]) => `${r}\\${n}`),
  fc.tuple(anyCase(root), name).map(([r, n]) => `${r}\\pods\\${n}:stream`),
);

/** Every Filesystem method with `path` in each of its path parameters. */
const operations: [string, (fs: Filesystem, path: string) => Promise<unknown>][] = [
  ["mkdir", (fs, path) => fs.mkdir({ path })],
  ["rmdir", (fs, path) => fs.rmdir({ path, force: true })],
  ["rmdirContents", (fs, path) => fs.rmdirContents({ path })],
  ["pathExists", (fs, path) => fs.pathExists({ path })],
  ["isSymlink", (fs, path) => fs.isSymlink({ path })],
  [
    "createSymlink source",
    (fs, path) => fs.createSymlink({ sourcePath: path, targetPath: `${root}\\pods\\new` }),
  ],
  [
    "createSymlink target",
    (fs, path) => fs.createSymlink({ sourcePath: `${root}\\pods`, targetPath: path }),
  ],
];

describe("paths: the allowedRoots sandbox (Windows rules, in-memory host)", () => {
  it("denies every outside path in every method, and changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(outside, fc.constantFrom(...operations), async (path, [, operation]) => {
        const { host, fs } = node();
        const before = JSON.stringify([...host.entries]);
        expect(["INVALID_ARGUMENT", "PERMISSION_DENIED"]).toContain(
          await outcome(operation(fs, path)),
        );
        expect(JSON.stringify([...host.entries])).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  it("denies going out through links in every method that acts at the path", async () => {
    // A link's source is checked as written by design: making a link changes nothing at its source.
    const acting = operations.filter(([label]) => label !== "createSymlink source");
    await fc.assert(
      fc.asyncProperty(throughLinks, fc.constantFrom(...acting), async (path, [, operation]) => {
        const { host, fs } = node();
        const before = JSON.stringify([...host.entries]);
        expect(["INVALID_ARGUMENT", "PERMISSION_DENIED"]).toContain(
          await outcome(operation(fs, path)),
        );
        expect(JSON.stringify([...host.entries])).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  it("allows the same forms when they stay inside (so the denials are not blanket)", async () => {
    const inside = fc.oneof(
      fc
        .tuple(anyCase(`${root}\\pods`), separator, name)
        .map(([r, sep, n]) => `${r}${sep.replace("/", "\\")}${n}`),
      fc.tuple(anyCase(`${root}\\pods`), name).map(([r, n]) => `\\\\?\\${r}\\${n}`),
    );
    await fc.assert(
      fc.asyncProperty(inside, async (path) => {
        const { fs } = node();
        expect(await outcome(fs.mkdir({ path }))).toBe("ok");
        expect(await fs.pathExists({ path })).toEqual({ exists: true });
      }),
      { numRuns: 100 },
    );
  });
});
