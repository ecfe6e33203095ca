import type { Stats } from "node:fs";
import type { DirectoryEntry } from "./host.js";

/**
 * What an entry is, for removal: `mount` is a directory that leads to another volume (a volume
 * mount point, a junction to a volume path, a reparse point of unknown kind, or a POSIX mount),
 * which the Filesystem group never enters or removes.
 */
export type EntryKind = "file" | "directory" | "link" | "mount" | "unlisted";

/**
 * Classifies an entry from what the OS says of the entry itself, never from path arithmetic:
 * - `lstat` calls it a link: libuv could read it as one (symlink, or a junction to `X:\`);
 * - the parent's listing calls it a link but `lstat` a directory: a reparse point libuv followed
 *   because it is not a readable link, such as `\??\Volume{guid}\` (src/win/fs.c, fs__stat_impl
 *   retries without FILE_FLAG_OPEN_REPARSE_POINT on ERROR_SYMLINK_NOT_SUPPORTED);
 * - its device differs from its parent's: a mount, also where volume serial numbers repeat
 *   (a cloned volume) only the listing can tell, which is why both are asked.
 * `listedAsLink` is `undefined` when the parent's listing did not contain the name (a short 8.3
 * name, or a race): such a directory is `unlisted`, and treated like a mount point.
 */
export function entryKind(
  stats: Stats,
  listedAsLink: boolean | undefined,
  parentDev: number,
): EntryKind {
  if (stats.isSymbolicLink()) return "link";
  if (!stats.isDirectory()) return "file";
  if (listedAsLink === undefined) return "unlisted";
  if (listedAsLink || stats.dev !== parentDev) return "mount";
  return "directory";
}

/** The entry of `name` in a listing, compared with `fold` (NTFS's rule on Windows). */
export function findEntry(
  entries: readonly DirectoryEntry[],
  name: string,
  fold: (name: string) => string,
): DirectoryEntry | undefined {
  const exact = entries.find((entry) => entry.name === name);
  if (exact) return exact;
  const key = fold(name);
  return entries.find((entry) => fold(entry.name) === key);
}
