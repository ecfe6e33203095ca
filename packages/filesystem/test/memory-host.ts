import type { Stats } from "node:fs";
import { win32 } from "node:path";
import {
  reparseTags,
  type DirectoryEntry,
  type FilesystemHost,
  type ReparsePoint,
} from "../src/index.js";

/**
 * An entry of the fake. `junction` is a junction to a drive path (`\??\C:\...`), which libuv
 * reads as a link; `mount` is a volume mount point (`\??\Volume{guid}\`, the CSI staging case:
 * a volume with no drive letter mounted on a folder), which it cannot read as one.
 */
export type Entry =
  | { kind: "dir" }
  | { kind: "file" }
  | { kind: "link"; target: string }
  | { kind: "junction"; target: string }
  | { kind: "mount"; volume: string; serial?: number }
  | { kind: "device"; device: string };

const systemSerial = 0x1c2a_7e41;

function errno(code: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${path}`), { code });
}

/**
 * An in-memory Windows filesystem that answers as Node answers on Windows (libuv, src/win/fs.c):
 * - `lstat` of a volume mount point follows it (fs__stat_impl retries without
 *   FILE_FLAG_OPEN_REPARSE_POINT), so it is a directory whose `dev` is the mounted volume's
 *   serial number; `readlink` of it fails with EINVAL (ERROR_SYMLINK_NOT_SUPPORTED);
 * - `readdir` with types calls every reparse point (link, junction, mount point) a link
 *   (fs__scandir tests FILE_ATTRIBUTE_REPARSE_POINT before FILE_ATTRIBUTE_DIRECTORY);
 * - names compare case-insensitively; `rmdir` of a non-empty directory fails with ENOTEMPTY;
 * - `rmdir` of a mount point removes the mount folder whatever the volume holds (libuv's
 *   fs__unlink_rmdir opens it with FILE_FLAG_OPEN_REPARSE_POINT; RemoveDirectoryW remarks: a
 *   junction goes "even if the contents of the target are not empty"), while `unlink` of it
 *   fails with EPERM (fs__unlink_rmdir refuses a directory that is not a symbolic link).
 * - `reparsePoint` gives each reparse point's tag and substitute name as FSCTL_GET_REPARSE_POINT
 *   does: a symbolic link's target as given, `\??\` before a junction's (a `device` entry is a
 *   junction to `\??\GLOBALROOT\Device\<device>\`, which libuv cannot read either).
 * A mounted volume's files are entries under the mount folder; once the folder is removed they
 * are kept in {@link MemoryWindowsHost.unmounted} under the volume's name. `serial` lets a test
 * give the mounted volume the system volume's serial number, as a volume cloned from it keeps.
 */
export class MemoryWindowsHost implements FilesystemHost {
  readonly entries = new Map<string, Entry>();
  readonly calls: string[] = [];
  /** The files of volumes whose mount folder was removed, by volume, relative to its root. */
  readonly unmounted = new Map<string, Map<string, Entry>>();

  constructor(layout: Record<string, Entry>) {
    for (const [path, entry] of Object.entries(layout)) this.entries.set(path.toLowerCase(), entry);
  }

  private get(path: string): Entry | undefined {
    return this.entries.get(path.toLowerCase());
  }

  /** The serial number of the volume holding `path` (a mount point's own is its volume's). */
  private serialOf(path: string): number {
    for (let current = path; ; current = win32.dirname(current)) {
      const entry = this.get(current);
      if (entry?.kind === "mount") return entry.serial ?? serialFromGuid(entry.volume);
      if (win32.dirname(current) === current) return systemSerial;
    }
  }

  reparsePoint(path: string): Promise<ReparsePoint | undefined> {
    this.calls.push(`reparsePoint ${path}`);
    const entry = this.get(path);
    if (!entry) return Promise.reject(errno("ENOENT", path));
    switch (entry.kind) {
      case "link":
        return Promise.resolve({ tag: reparseTags.SYMLINK, target: entry.target });
      case "junction":
        return Promise.resolve({ tag: reparseTags.MOUNT_POINT, target: `\\??\\${entry.target}` });
      case "mount":
        return Promise.resolve({ tag: reparseTags.MOUNT_POINT, target: `\\??\\${entry.volume}\\` });
      case "device":
        return Promise.resolve({
          tag: reparseTags.MOUNT_POINT,
          target: `\\??\\GLOBALROOT\\Device\\${entry.device}\\`,
        });
      default:
        return Promise.resolve(undefined);
    }
  }

  private stats(path: string, entry: Entry): Stats {
    const isLink = entry.kind === "link" || entry.kind === "junction";
    const fake: Pick<Stats, "isDirectory" | "isSymbolicLink" | "isFile" | "dev"> = {
      isDirectory: () => entry.kind === "dir" || entry.kind === "mount" || entry.kind === "device",
      isSymbolicLink: () => isLink,
      isFile: () => entry.kind === "file",
      dev: this.serialOf(path),
    };
    return fake as Stats;
  }

  lstat(path: string): Promise<Stats> {
    this.calls.push(`lstat ${path}`);
    const entry = this.get(path);
    return entry ? Promise.resolve(this.stats(path, entry)) : Promise.reject(errno("ENOENT", path));
  }

  async stat(path: string): Promise<Stats> {
    const entry = this.get(path);
    if (entry?.kind === "link" || entry?.kind === "junction") return this.stat(entry.target);
    if (!entry) throw errno("ENOENT", path);
    return this.stats(path, entry);
  }

  readlink(path: string): Promise<string> {
    const entry = this.get(path);
    return entry?.kind === "link" || entry?.kind === "junction"
      ? Promise.resolve(entry.target)
      : Promise.reject(errno("EINVAL", path));
  }

  async realpath(path: string): Promise<string> {
    const entry = this.get(path);
    if (!entry) throw errno("ENOENT", path);
    return entry.kind === "link" || entry.kind === "junction" ? this.realpath(entry.target) : path;
  }

  mkdir(path: string): Promise<void> {
    this.calls.push(`mkdir ${path}`);
    let current = path;
    while (!this.get(current)) {
      this.entries.set(current.toLowerCase(), { kind: "dir" });
      current = win32.dirname(current);
    }
    return Promise.resolve();
  }

  rmdir(path: string): Promise<void> {
    this.calls.push(`rmdir ${path}`);
    const entry = this.get(path);
    if (!entry) return Promise.reject(errno("ENOENT", path));
    if (entry.kind === "file") return Promise.reject(errno("ENOTDIR", path));
    if (entry.kind === "mount" || entry.kind === "device") {
      this.detach(path, entry.kind === "mount" ? entry.volume : entry.device);
      return Promise.resolve();
    }
    if (entry.kind === "dir" && this.children(path).length > 0)
      return Promise.reject(errno("ENOTEMPTY", path));
    this.entries.delete(path.toLowerCase());
    return Promise.resolve();
  }

  /** Takes a volume off its mount folder: the folder goes, the volume's files are kept aside. */
  private detach(path: string, volume: string): void {
    const prefix = `${path.toLowerCase()}\\`;
    const files = new Map<string, Entry>();
    for (const [key, child] of [...this.entries.entries()]) {
      if (!key.startsWith(prefix)) continue;
      files.set(key.slice(prefix.length), child);
      this.entries.delete(key);
    }
    this.entries.delete(path.toLowerCase());
    this.unmounted.set(volume, files);
  }

  unlink(path: string): Promise<void> {
    this.calls.push(`unlink ${path}`);
    const entry = this.get(path);
    if (!entry) return Promise.reject(errno("ENOENT", path));
    if (entry.kind !== "file") return Promise.reject(errno("EPERM", path));
    this.entries.delete(path.toLowerCase());
    return Promise.resolve();
  }

  readdir(path: string): Promise<DirectoryEntry[]> {
    this.calls.push(`readdir ${path}`);
    const entry = this.get(path);
    if (!entry) return Promise.reject(errno("ENOENT", path));
    return Promise.resolve(
      this.children(path).map(([name, child]) => {
        const reparse = child.kind !== "dir" && child.kind !== "file";
        return {
          name,
          isSymbolicLink: () => reparse,
          isDirectory: () => !reparse && child.kind === "dir",
        };
      }),
    );
  }

  symlink(target: string, path: string): Promise<void> {
    this.calls.push(`symlink ${path}`);
    // CreateSymbolicLinkW fails with ERROR_ALREADY_EXISTS, which libuv maps to EEXIST.
    if (this.get(path)) return Promise.reject(errno("EEXIST", path));
    this.entries.set(path.toLowerCase(), { kind: "link", target });
    return Promise.resolve();
  }

  /** Whether anything at or under `path` is still there. */
  has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  private children(path: string): [string, Entry][] {
    const lower = path.toLowerCase();
    const prefix = lower.endsWith("\\") ? lower : `${lower}\\`;
    return [...this.entries.entries()]
      .filter(([key]) => key.startsWith(prefix) && !key.slice(prefix.length).includes("\\"))
      .map(([key, entry]) => [key.slice(prefix.length), entry]);
  }
}

function serialFromGuid(volume: string): number {
  const hex = /[0-9a-f]{8}/i.exec(volume)?.[0] ?? "0badf00d";
  return Number.parseInt(hex, 16);
}
