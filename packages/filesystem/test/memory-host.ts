import type { Stats } from "node:fs";
import { win32 } from "node:path";
import type { FilesystemHost } from "../src/index.js";

type Entry =
  | { kind: "dir" }
  | { kind: "file" }
  | { kind: "link"; target: string }
  | { kind: "mount"; volume: string };

function errno(code: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${path}`), { code });
}

/**
 * An in-memory Windows filesystem for tests: paths are case-insensitive, links and volume mount
 * points behave as Node reports them on Windows (a mount point lstat()s as a plain directory,
 * and only the native realpath reveals the volume).
 */
export class MemoryWindowsHost implements FilesystemHost {
  readonly entries = new Map<string, Entry>();
  readonly calls: string[] = [];

  constructor(layout: Record<string, Entry>) {
    for (const [path, entry] of Object.entries(layout)) this.entries.set(path.toLowerCase(), entry);
  }

  private get(path: string): Entry | undefined {
    return this.entries.get(path.toLowerCase());
  }

  private stats(entry: Entry): Stats {
    const fake: Pick<Stats, "isDirectory" | "isSymbolicLink" | "isFile"> = {
      isDirectory: () => entry.kind === "dir" || entry.kind === "mount",
      isSymbolicLink: () => entry.kind === "link",
      isFile: () => entry.kind === "file",
    };
    return fake as Stats;
  }

  lstat(path: string): Promise<Stats> {
    this.calls.push(`lstat ${path}`);
    const entry = this.get(path);
    return entry ? Promise.resolve(this.stats(entry)) : Promise.reject(errno("ENOENT", path));
  }

  async stat(path: string): Promise<Stats> {
    const entry = this.get(path);
    if (entry?.kind === "link") return this.stat(entry.target);
    if (!entry) throw errno("ENOENT", path);
    return this.stats(entry);
  }

  readlink(path: string): Promise<string> {
    const entry = this.get(path);
    return entry?.kind === "link"
      ? Promise.resolve(entry.target)
      : Promise.reject(errno("EINVAL", path));
  }

  async realpath(path: string): Promise<string> {
    const entry = this.get(path);
    if (!entry) throw errno("ENOENT", path);
    return entry.kind === "link" ? this.realpath(entry.target) : path;
  }

  async realpathNative(path: string): Promise<string> {
    const entry = this.get(path);
    if (entry?.kind === "mount") return `\\\\?\\${entry.volume}\\`;
    return this.realpath(path);
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
    this.entries.delete(path.toLowerCase());
    return Promise.resolve();
  }

  unlink(path: string): Promise<void> {
    this.calls.push(`unlink ${path}`);
    this.entries.delete(path.toLowerCase());
    return Promise.resolve();
  }

  removeTree(path: string): Promise<void> {
    return this.rmdir(path);
  }

  readdir(path: string): Promise<string[]> {
    this.calls.push(`readdir ${path}`);
    const prefix = `${path.toLowerCase()}\\`;
    const names = [...this.entries.keys()]
      .filter((key) => key.startsWith(prefix) && !key.slice(prefix.length).includes("\\"))
      .map((key) => key.slice(prefix.length));
    return Promise.resolve(names);
  }

  symlink(target: string, path: string): Promise<void> {
    this.entries.set(path.toLowerCase(), { kind: "link", target });
    return Promise.resolve();
  }
}
