import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createNodeFilesystemHost,
  Filesystem,
  isCsiProxyError,
  type CallContext,
  type FilesystemHost,
} from "../src/index.js";
import { MemoryWindowsHost } from "./memory-host.js";
import { gate, publicMethods } from "@csi-proxy/test-utils";

let dir: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "csi-deadline-")));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return isCsiProxyError(error) ? error.code : `untyped: ${String(error)}`;
  }
  return "resolved";
}

/** Lets every promise and I/O callback that is ready run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** A host that records every call (method and path) and otherwise does what Node's fs does. */
function recording(log: string[], base: FilesystemHost = createNodeFilesystemHost()) {
  const host = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(base)) {
    host[name] = (...args: unknown[]) => {
      log.push(`${name} ${String(args[name === "symlink" ? 1 : 0])}`);
      return (fn as (...a: unknown[]) => Promise<unknown>)(...args);
    };
  }
  return host as unknown as FilesystemHost;
}

// Public methods are found from the prototype; TypeScript `private` ones are read from the source.
const privateNames = new Set(
  [
    ...readFileSync(
      fileURLToPath(new URL("../src/filesystem.ts", import.meta.url)),
      "utf8",
    ).matchAll(/^\s+private (?:readonly |get |async )*(\w+)/gm),
  ]
    .map((match) => match[1])
    // A view of the group, not a call on the host: it takes no options.
    .concat("confine"),
);

describe("every Filesystem method takes { signal?, timeoutMs? }", () => {
  const requests = (root: string): Record<string, unknown> => ({
    pathExists: { path: join(root, "a") },
    pathValid: { path: join(root, "a") },
    mkdir: { path: join(root, "a") },
    rmdir: { path: join(root, "a"), force: true },
    rmdirContents: { path: root },
    createSymlink: { sourcePath: join(root, "a"), targetPath: join(root, "b") },
    isSymlink: { path: join(root, "a") },
    inspect: { path: join(root, "a") },
  });

  it("the table of requests covers every public method", () => {
    const names = publicMethods(new Filesystem({ pathStyle: "posix" }), privateNames).map(
      ([name]) => name,
    );
    expect(names.sort()).toEqual(Object.keys(requests(dir)).sort());
  });

  const bad: [string, unknown][] = [
    ["a misspelt timeout", { timeout: 5 }],
    ["a signal that is no AbortSignal", { signal: {} }],
    ["timeoutMs 0", { timeoutMs: 0 }],
    ["a string", "x"],
    ["an aborted signal", { signal: AbortSignal.abort() }],
  ];
  for (const [name] of publicMethods(new Filesystem({ pathStyle: "posix" }), privateNames)) {
    it.each(bad)(`${name} refuses %s before any fs call`, async (what, options) => {
      const log: string[] = [];
      const fs = new Filesystem({ host: recording(log), pathStyle: "posix", allowedRoots: [dir] });
      const method = publicMethods(fs, privateNames).find(([n]) => n === name)![1];
      const code = await codeOf(method(requests(dir)[name], options));
      expect(code).toBe(what === "an aborted signal" ? "ABORTED" : "INVALID_ARGUMENT");
      expect(log).toEqual([]);
    });
  }
});

describe("one deadline across every fs call of a method", () => {
  it("hands every host call the same context, never with more time than the call had", async () => {
    const tree = join(dir, "tree");
    mkdirSync(join(tree, "a", "b"), { recursive: true });
    writeFileSync(join(tree, "a", "b", "f"), "x");
    const contexts: (CallContext | undefined)[] = [];
    const remaining: (number | undefined)[] = [];
    const base = createNodeFilesystemHost();
    const host = Object.fromEntries(
      Object.entries(base).map(([name, fn]) => [
        name,
        (...args: unknown[]) => {
          const context = args.at(-1) as CallContext | undefined;
          contexts.push(context);
          remaining.push(context?.remainingMs());
          return (fn as (...a: unknown[]) => Promise<unknown>)(...args);
        },
      ]),
    ) as unknown as FilesystemHost;
    const fs = new Filesystem({ host, pathStyle: "posix", allowedRoots: [dir] });
    const controller = new AbortController();
    await fs.rmdir({ path: tree, force: true }, { signal: controller.signal, timeoutMs: 60_000 });
    expect(contexts.length).toBeGreaterThan(5);
    expect(new Set(contexts).size).toBe(1);
    for (const [i, left] of remaining.entries()) {
      expect(left).toBeLessThanOrEqual(60_000);
      if (i > 0) expect(left).toBeLessThanOrEqual(remaining[i - 1]!);
    }
  });

  it("gives up on an fs call that does not return (a dead share) at the deadline", async () => {
    const hung: FilesystemHost = {
      ...createNodeFilesystemHost(),
      stat: () => new Promise(() => undefined),
    };
    const fs = new Filesystem({ host: hung, pathStyle: "posix" });
    expect(await codeOf(fs.pathValid({ path: "//server/share" }, { timeoutMs: 50 }))).toBe(
      "TIMEOUT",
    );
    const controller = new AbortController();
    const call = fs.pathValid({ path: "//server/share" }, { signal: controller.signal });
    controller.abort();
    expect(await codeOf(call)).toBe("ABORTED");
  });
});

describe("locks and cancellation", () => {
  it("a call waiting for the path's lock is ABORTED without an fs call; the holder finishes", async () => {
    const target = join(dir, "t");
    mkdirSync(target);
    const log: string[] = [];
    const base = createNodeFilesystemHost();
    const hold = gate();
    const entered = gate();
    const host = recording(log, {
      ...base,
      rmdir: async (path) => {
        entered.open();
        await hold.opened;
        await base.rmdir(path);
      },
    });
    const fs = new Filesystem({ host, pathStyle: "posix" });
    const holder = fs.rmdir({ path: target });
    await entered.opened;
    const controller = new AbortController();
    const waiter = fs.mkdir({ path: target }, { signal: controller.signal });
    await settle();
    controller.abort();
    expect(await codeOf(waiter)).toBe("ABORTED");
    hold.open();
    await expect(holder).resolves.toEqual({});
    expect(log.filter((entry) => entry.startsWith("mkdir"))).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("an abandoned removal keeps the path locked until it returns; the retry then finishes", async () => {
    const tree = join(dir, "tree");
    mkdirSync(tree);
    writeFileSync(join(tree, "f1"), "x");
    writeFileSync(join(tree, "f2"), "x");
    const log: string[] = [];
    const base = createNodeFilesystemHost();
    const hold = gate();
    const entered = gate();
    let first = true;
    const host = recording(log, {
      ...base,
      unlink: async (path) => {
        if (first) {
          first = false;
          entered.open();
          await hold.opened; // a removal that hangs, as on an unresponsive volume
        }
        await base.unlink(path);
      },
    });
    const fs = new Filesystem({ host, pathStyle: "posix" });
    const controller = new AbortController();
    const cancelled = fs.rmdir({ path: tree, force: true }, { signal: controller.signal });
    await entered.opened;
    controller.abort();
    expect(await codeOf(cancelled)).toBe("ABORTED");
    const calls = log.length;
    const retry = fs.rmdir({ path: tree, force: true });
    await settle();
    expect(log.length).toBe(calls); // the retry waits for the abandoned unlink
    hold.open();
    await expect(retry).resolves.toEqual({});
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("retry after a cancellation", () => {
  const pods = "C:\\var\\lib\\kubelet\\pods";
  const target = `${pods}\\uid`;
  const volume = "Volume{11111111-2222-3333-4444-555555555555}";

  /** A Windows tree whose first removal aborts the call, as a caller giving up mid-walk. */
  function cancelledAfterFirstRemoval() {
    const host = new MemoryWindowsHost({
      "C:\\": { kind: "dir" },
      "C:\\var": { kind: "dir" },
      "C:\\var\\lib": { kind: "dir" },
      "C:\\var\\lib\\kubelet": { kind: "dir" },
      [pods]: { kind: "dir" },
      [target]: { kind: "dir" },
      [`${target}\\a.txt`]: { kind: "file" },
      [`${target}\\b.txt`]: { kind: "file" },
      [`${target}\\sub`]: { kind: "dir" },
      [`${target}\\sub\\c.txt`]: { kind: "file" },
    });
    const controller = new AbortController();
    const unlink = host.unlink.bind(host);
    host.unlink = async (path: string) => {
      await unlink(path);
      controller.abort();
    };
    const fs = new Filesystem({ host, pathStyle: "windows", allowedRoots: [pods] });
    const left = () =>
      [...host.entries.keys()].filter((key) => key.startsWith(`${target.toLowerCase()}\\`));
    return { host, fs, signal: controller.signal, left, restore: () => (host.unlink = unlink) };
  }

  it("rmdirContents runs its check pass again, so a mount point that appeared is refused", async () => {
    const { host, fs, signal, left, restore } = cancelledAfterFirstRemoval();
    expect(await codeOf(fs.rmdirContents({ path: target }, { signal }))).toBe("ABORTED");
    const remaining = left();
    expect(remaining.length).toBe(3); // one file removed, then the walk stopped
    restore();
    host.entries.set(`${target}\\mnt`.toLowerCase(), { kind: "mount", volume });
    host.entries.set(`${target}\\mnt\\data`.toLowerCase(), { kind: "file" });
    expect(await codeOf(fs.rmdirContents({ path: target }))).toBe("FAILED_PRECONDITION");
    expect(left().sort()).toEqual(
      [...remaining, `${target}\\mnt`, `${target}\\mnt\\data`].map((p) => p.toLowerCase()).sort(),
    );
    host.entries.delete(`${target}\\mnt\\data`.toLowerCase());
    host.entries.delete(`${target}\\mnt`.toLowerCase());
    await fs.rmdirContents({ path: target });
    expect(left()).toEqual([]);
    expect(host.has(target)).toBe(true);
  });

  it("rmdir with force, cancelled mid-walk, ends where an uncancelled call does", async () => {
    const { host, fs, signal, left, restore } = cancelledAfterFirstRemoval();
    expect(await codeOf(fs.rmdir({ path: target, force: true }, { signal }))).toBe("ABORTED");
    expect(left().length).toBe(3);
    restore();
    await fs.rmdir({ path: target, force: true });
    expect(host.has(target)).toBe(false);
    expect(host.has(pods)).toBe(true);
  });

  it("createSymlink, cancelled after the link was made, succeeds on retry", async () => {
    const source = join(dir, "staging");
    const link = join(dir, "pod");
    mkdirSync(source);
    const base = createNodeFilesystemHost();
    const controller = new AbortController();
    const host: FilesystemHost = {
      ...base,
      symlink: async (target, path, type) => {
        await base.symlink(target, path, type);
        controller.abort(); // the caller gave up just as the link was made
      },
    };
    const fs = new Filesystem({ host, pathStyle: "posix" });
    expect(
      await codeOf(
        fs.createSymlink({ sourcePath: source, targetPath: link }, { signal: controller.signal }),
      ),
    ).toBe("ABORTED");
    expect(readlinkSync(link)).toBe(source);
    await expect(fs.createSymlink({ sourcePath: source, targetPath: link })).resolves.toEqual({});
    expect(readlinkSync(link)).toBe(source);
  });

  it("createSymlink still refuses a link to another source, or a directory, at the target", async () => {
    const source = join(dir, "staging");
    const other = join(dir, "other");
    mkdirSync(source);
    mkdirSync(other);
    symlinkSync(other, join(dir, "pod"));
    mkdirSync(join(dir, "plain"));
    const fs = new Filesystem({ pathStyle: "posix" });
    expect(
      await codeOf(fs.createSymlink({ sourcePath: source, targetPath: join(dir, "pod") })),
    ).toBe("ALREADY_EXISTS");
    expect(
      await codeOf(fs.createSymlink({ sourcePath: source, targetPath: join(dir, "plain") })),
    ).toBe("ALREADY_EXISTS");
    expect(lstatSync(join(dir, "plain")).isDirectory()).toBe(true);
  });

  it("createSymlink on Windows matches the stored target as NTFS compares names", async () => {
    const host = new MemoryWindowsHost({
      "C:\\": { kind: "dir" },
      "C:\\stage": { kind: "dir" },
      "C:\\pod": { kind: "link", target: "C:\\Stage" },
    });
    const fs = new Filesystem({ host, pathStyle: "windows" });
    await expect(
      fs.createSymlink({ sourcePath: "C:\\stage", targetPath: "C:\\pod" }),
    ).resolves.toEqual({});
  });
});
