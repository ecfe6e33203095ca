/// <reference types="node" preserve="true" />
// FilesystemHost uses Node's fs types; the kept directive loads them for consumers (TS 6: `types: []`).
import { type Stats, realpath as realpathCallback } from "node:fs";
import {
  lstat,
  mkdir,
  readdir,
  readlink,
  rm,
  rmdir,
  stat,
  symlink,
  unlink,
} from "node:fs/promises";
import { promisify } from "node:util";

/**
 * The filesystem operations the Filesystem group needs. The default uses Node's `fs`, which is
 * exact for these operations on Windows and POSIX; tests inject fakes to reproduce Windows-only
 * behaviour (volume mount points) on Linux.
 */
export interface FilesystemHost {
  /** `fs.lstat`: the entry itself, links not followed. */
  lstat(path: string): Promise<Stats>;
  /** `fs.stat`: links followed. */
  stat(path: string): Promise<Stats>;
  /** `fs.readlink`: a link's target as stored. */
  readlink(path: string): Promise<string>;
  /** Resolves symlinks and junctions component by component (not volume mount points). */
  realpath(path: string): Promise<string>;
  /** The OS's own final path: on Windows a mounted folder resolves to its `\\?\Volume{...}\`. */
  realpathNative(path: string): Promise<string>;
  /** Creates the directory and its missing parents; an existing directory is success. */
  mkdir(path: string): Promise<void>;
  /** `fs.rmdir`: removes an empty directory (and, on Windows, a directory link). */
  rmdir(path: string): Promise<void>;
  /** `fs.unlink`: removes a file or a link. */
  unlink(path: string): Promise<void>;
  /** Removes a directory tree; a missing path is success. */
  removeTree(path: string): Promise<void>;
  /** Names of a directory's entries. */
  readdir(path: string): Promise<string[]>;
  /** Creates `path` as a link to `target`; `"dir"` makes a directory link on Windows. */
  symlink(target: string, path: string, type: "dir" | "file"): Promise<void>;
}

// The callback realpath is Node's JavaScript walk, which follows only what lstat calls a link.
const realpathWalk = promisify(realpathCallback);
const realpathNative = promisify(realpathCallback.native);

/**
 * The default host: Node's `fs`. Wrap it to fake Windows-only behaviour in tests.
 *
 * @example
 * ```ts
 * const real = createNodeFilesystemHost();
 * const fs = new Filesystem({ host: { ...real, readdir: async (p) => (await real.readdir(p)).sort() } });
 * ```
 */
export function createNodeFilesystemHost(): FilesystemHost {
  return {
    lstat: (path) => lstat(path),
    stat: (path) => stat(path),
    readlink: (path) => readlink(path),
    realpath: (path) => realpathWalk(path),
    realpathNative: (path) => realpathNative(path),
    mkdir: async (path) => {
      await mkdir(path, { recursive: true });
    },
    rmdir: (path) => rmdir(path),
    unlink: (path) => unlink(path),
    removeTree: (path) => rm(path, { recursive: true, force: true }),
    readdir: (path) => readdir(path),
    symlink: (target, path, type) => symlink(target, path, type),
  };
}
