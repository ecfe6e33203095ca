/// <reference types="node" preserve="true" />
// FilesystemHost uses Node's fs types; the kept directive loads them for consumers (TS 6: `types: []`).
import type { Dirent, Stats } from "node:fs";
import { foldWindowsName, type CallContext } from "@csi-proxy/exec";
import { lstat, mkdir, readdir, readlink, rmdir, stat, symlink, unlink } from "node:fs/promises";
import { realpath as realpathCallback } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname } from "node:path";
import { promisify } from "node:util";
import { platformOpenDirectory, type HeldDirectory } from "./held-directory.js";
import { reparseTags, type ReparsePoint } from "./reparse.js";
import { createWin32ReparseReader, type KoffiLike } from "./reparse-win32.js";

/**
 * One entry of a directory listing, typed by what the OS says of the entry itself. On Windows,
 * Node's `readdir(..., { withFileTypes: true })` reports every reparse point (symbolic link,
 * junction, volume mount point) as a symbolic link: libuv's `fs__scandir` (src/win/fs.c) maps
 * `FILE_ATTRIBUTE_REPARSE_POINT` to `UV__DT_LINK` before it looks at `FILE_ATTRIBUTE_DIRECTORY`.
 */
export type DirectoryEntry = Pick<Dirent, "name" | "isDirectory" | "isSymbolicLink">;

/**
 * The filesystem operations the Filesystem group needs. The default uses Node's `fs`; tests
 * inject fakes that reproduce what Node reports on Windows (volume mount points) on Linux.
 * Every method's last parameter, `context`, is the calling method's deadline and signal. Node's
 * fs calls cannot be cancelled, so the default host ignores it; `Filesystem` stops waiting for a
 * call once the method is over, whatever the host does with it.
 */
export interface FilesystemHost {
  /**
   * `fs.lstat`: the entry itself. On Windows, libuv follows a reparse point it cannot read as a
   * link (a volume mount point), so such a folder lstat()s as the mounted volume's root.
   */
  lstat(path: string, context?: CallContext): Promise<Stats>;
  /** `fs.stat`: links followed. */
  stat(path: string, context?: CallContext): Promise<Stats>;
  /** `fs.readlink`: a link's target as stored. */
  readlink(path: string, context?: CallContext): Promise<string>;
  /** Resolves symlinks and junctions component by component (not volume mount points). */
  realpath(path: string, context?: CallContext): Promise<string>;
  /** Creates the directory and its missing parents; an existing directory is success. */
  mkdir(path: string, context?: CallContext): Promise<void>;
  /** `fs.rmdir`: removes an empty directory (and, on Windows, a directory link). */
  rmdir(path: string, context?: CallContext): Promise<void>;
  /** `fs.unlink`: removes a file or a link. */
  unlink(path: string, context?: CallContext): Promise<void>;
  /** A directory's entries, each typed by the directory listing itself (see {@link DirectoryEntry}). */
  readdir(path: string, context?: CallContext): Promise<DirectoryEntry[]>;
  /** Creates `path` as a link to `target`; `"dir"` makes a directory link on Windows. */
  symlink(target: string, path: string, type: "dir" | "file", context?: CallContext): Promise<void>;
  /**
   * Opens the directory at `path` without following a link at its last name (ELOOP for a link,
   * ENOTDIR for anything but a directory) and holds it until `close()`: the returned `path`
   * reaches that very directory, whatever is renamed meanwhile, so a confined call acts where it
   * checked. Optional: without it a confined call checks each name and then acts by name, which
   * a process racing it can redirect.
   */
  openDirectory?(path: string, context?: CallContext): Promise<HeldDirectory>;
  /**
   * The reparse point at `path` itself (its tag and substitute name), `undefined` for a name that
   * is none; ENOENT when nothing is there. Optional: a host without it has no links but those
   * `lstat` reports (Linux). Windows needs it, because `lstat` follows every reparse point libuv
   * cannot read as a link, a junction to another volume among them, and reports a plain folder.
   */
  reparsePoint?(path: string, context?: CallContext): Promise<ReparsePoint | undefined>;
}

/** Options of {@link createNodeFilesystemHost}. */
export interface NodeFilesystemHostOptions {
  /**
   * Where reparse points are read on Windows: koffi (the Win32 FFI) as the caller loaded it, or
   * `false` to read them from directory listings only (see {@link createNodeFilesystemHost}).
   * By default koffi is loaded from this package's dependencies. Ignored off Windows.
   */
  readonly koffi?: KoffiLike | false;
}

/**
 * `mkdir -p`, one level at a time: Node's own recursive mkdir retries a name whose parent exists
 * but cannot take it (a folder removed while held open) for ever, on the thread pool.
 */
async function makeDirectories(path: string): Promise<void> {
  try {
    await mkdir(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "EEXIST") {
      if ((await stat(path)).isDirectory()) return;
      throw error;
    }
    const parent = dirname(path);
    if (code !== "ENOENT" || parent === path) throw error;
    await makeDirectories(parent);
    try {
      await mkdir(path);
    } catch (again) {
      if ((again as { code?: unknown }).code !== "EEXIST" || !(await stat(path)).isDirectory()) {
        throw again;
      }
    }
  }
}

// The callback realpath is Node's JavaScript walk, which follows only what lstat calls a link.
const realpathWalk = promisify(realpathCallback);

/**
 * The default host: Node's `fs`. Wrap it to fake Windows-only behaviour in tests.
 *
 * @example
 * ```ts
 * const real = createNodeFilesystemHost();
 * const fs = new Filesystem({ host: { ...real, mkdir: async (p) => { console.log(p); await real.mkdir(p); } } });
 * ```
 */
export function createNodeFilesystemHost(options: NodeFilesystemHostOptions = {}): FilesystemHost {
  return {
    lstat: (path) => lstat(path),
    stat: (path) => stat(path),
    readlink: (path) => readlink(path),
    realpath: (path) => realpathWalk(path),
    mkdir: (path) => makeDirectories(path),
    rmdir: (path) => rmdir(path),
    unlink: (path) => unlink(path),
    // scandir (fs__scandir lists every reparse point as a link); opendir's fs__readdir tested
    // the directory bit first up to libuv 1.49 and called a mount point a directory there.
    readdir: (path) => readdir(path, { withFileTypes: true }),
    symlink: (target, path, type) => symlink(target, path, type),
    ...platformOpenDirectory(),
    ...(process.platform === "win32" && { reparsePoint: windowsReparseReader(options.koffi) }),
  };
}

/**
 * Windows: the reparse data read through koffi; where koffi cannot load, what a listing shows,
 * the less precise way: a link `lstat` reads is a symbolic link to its `readlink` target, and a
 * folder its parent lists as a link (libuv's fs__scandir: FILE_ATTRIBUTE_REPARSE_POINT is a link)
 * but `lstat` calls a folder is a reparse point whose data was not read (tag 0), never followed.
 */
function windowsReparseReader(
  koffi: KoffiLike | false | undefined,
): (path: string) => Promise<ReparsePoint | undefined> {
  let read: ((path: string) => Promise<ReparsePoint | undefined>) | undefined;
  // Bound on first use: koffi is loaded only once a path is looked at.
  return (path) => {
    if (read === undefined) {
      const loaded = koffi === false ? undefined : (koffi ?? loadKoffi());
      read = loaded === undefined ? readFromListing : createWin32ReparseReader(loaded);
    }
    return read(path);
  };
}

async function readFromListing(path: string): Promise<ReparsePoint | undefined> {
  const stats = await lstat(path);
  if (stats.isSymbolicLink()) return { tag: reparseTags.SYMLINK, target: await readlink(path) };
  if (!stats.isDirectory() || dirname(path) === path) return undefined;
  const entries = await readdir(dirname(path), { withFileTypes: true });
  const key = foldWindowsName(basename(path));
  const entry = entries.find((e) => foldWindowsName(e.name) === key);
  // Not listed under that name (an 8.3 name): it cannot be told apart, so it is not followed.
  return entry === undefined || entry.isSymbolicLink() ? { tag: 0 } : undefined;
}

function loadKoffi(): KoffiLike | undefined {
  try {
    return createRequire(import.meta.url)("koffi") as KoffiLike;
  } catch {
    return undefined;
  }
}
