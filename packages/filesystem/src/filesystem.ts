import {
  createKeyedLock,
  CsiProxyError,
  foldWindowsName,
  groupOptions,
  invalidArgument,
  objectOption,
  pathStyleOption,
  normalizePath,
  ownRequest,
  type PathRuleOptions,
  type PathStyle,
} from "@csi-proxy/exec";
import type { Stats } from "node:fs";
import { posix, win32 } from "node:path";
import { entryKind, findEntry, type EntryKind } from "./entry-kind.js";
import { errnoCode, fsError } from "./fs-errors.js";
import { createNodeFilesystemHost, type DirectoryEntry, type FilesystemHost } from "./host.js";
import { Sandbox } from "./sandbox.js";
import type {
  CreateSymlinkRequest,
  CreateSymlinkResponse,
  IsSymlinkRequest,
  IsSymlinkResponse,
  MkdirRequest,
  MkdirResponse,
  PathExistsRequest,
  PathExistsResponse,
  PathValidRequest,
  PathValidResponse,
  RmdirContentsRequest,
  RmdirContentsResponse,
  RmdirRequest,
  RmdirResponse,
} from "./types.js";

/** Options of {@link Filesystem}. */
export interface FilesystemOptions {
  /** The filesystem operations; Node's `fs` by default. */
  host?: FilesystemHost;
  /** Path rules to apply; the platform's by default. */
  pathStyle?: PathStyle;
  /** Drive for root-relative Windows paths such as `\var\lib\kubelet`. Default `C:`. */
  systemDrive?: string;
  /**
   * When set, every path must lie inside one of these roots (upstream v1's `-kubelet-path` and
   * `-working-dir`), checked before any operation, also after resolving links.
   */
  allowedRoots?: readonly string[];
}

const missing = new Set(["ENOENT", "ENOTDIR"]);

/**
 * Paths, directories and links, as a CSI driver's node plugin needs them. Runs on Node's `fs`
 * in-process: no PowerShell, no process per call.
 *
 * @example
 * ```ts
 * import { Filesystem } from "@csi-proxy/filesystem";
 *
 * const fs = new Filesystem({ allowedRoots: ["C:\\var\\lib\\kubelet"] });
 * await fs.mkdir({ path: "C:\\var\\lib\\kubelet\\pods\\uid\\volumes" });
 * await fs.createSymlink({ sourcePath: stagingPath, targetPath: podPath });
 * ```
 */
export class Filesystem {
  private readonly host: FilesystemHost;
  private readonly rules: PathRuleOptions;
  private readonly sandbox: Sandbox;
  private readonly locks = createKeyedLock();

  constructor(options: FilesystemOptions = {}) {
    const own = groupOptions(options, "Filesystem");
    this.host =
      (objectOption(own("host"), "Filesystem: host") as FilesystemHost | undefined) ??
      createNodeFilesystemHost();
    const systemDrive = own("systemDrive") as string | undefined;
    this.rules = {
      style: pathStyleOption(own("pathStyle")),
      ...(systemDrive === undefined ? {} : { systemDrive }),
    };
    const roots = own("allowedRoots");
    if (roots !== undefined && !Array.isArray(roots)) {
      throw invalidArgument("allowedRoots must be an array of paths.");
    }
    this.sandbox = new Sandbox(roots as readonly string[] | undefined, this.rules, this.host);
  }

  /** Whether anything exists at the path (links are not followed, so a dangling link counts). */
  async pathExists(request: PathExistsRequest): Promise<PathExistsResponse> {
    request = ownRequest(request, "pathExists");
    const path = await this.checked(request.path, false);
    try {
      await this.host.lstat(path);
      return { exists: true };
    } catch (error) {
      if (missing.has(errnoCode(error) ?? "")) return { exists: false };
      throw fsError("inspect", path, error);
    }
  }

  /**
   * Whether the path resolves (links followed). Takes any path Windows can open, such as an SMB
   * share, so it applies no path rules or sandbox, as upstream's PathValid.
   */
  async pathValid(request: PathValidRequest): Promise<PathValidResponse> {
    request = ownRequest(request, "pathValid");
    const { path } = request;
    if (typeof path !== "string" || path === "") throw invalidArgument("The path is empty.");
    if (path.includes("\u0000")) throw invalidArgument("The path contains a NUL character.");
    try {
      await this.host.stat(path);
      return { valid: true };
    } catch (error) {
      const code = errnoCode(error) ?? "";
      if (missing.has(code) || code === "EINVAL" || code === "ENAMETOOLONG")
        return { valid: false };
      throw fsError("inspect", path, error);
    }
  }

  /** Creates the directory and its parents; succeeds when it already exists. */
  async mkdir(request: MkdirRequest): Promise<MkdirResponse> {
    request = ownRequest(request, "mkdir");
    const path = await this.checked(request.path, true);
    await this.locked(path, async () => {
      try {
        await this.host.mkdir(path);
      } catch (error) {
        throw fsError("create directory", path, error);
      }
    });
    return {};
  }

  /**
   * Removes a directory (or file or link). Without `force` it must exist and be empty; with
   * `force` it is removed recursively, and a missing path is success. Links and junctions are
   * removed as links, never followed. A mount point (a folder leading to another volume) is
   * never entered or removed: `FAILED_PRECONDITION`, and nothing is deleted, when the path or
   * anything under it is one; unmount it first (`Volume.unmountVolume` flushes and unmounts).
   */
  async rmdir(request: RmdirRequest): Promise<RmdirResponse> {
    request = ownRequest(request, "rmdir");
    const path = await this.checked(request.path, false);
    const force = request.force === true;
    await this.locked(path, async () => {
      const top = await this.inspectTop(path, force);
      if (top === undefined) return;
      // Check the whole tree first, so a refusal leaves every file where it was.
      if (force) await this.removeEntry(path, top, true, false);
      await this.removeEntry(path, top, force, true);
    });
    return {};
  }

  /**
   * Empties a directory, keeping it. Links inside are removed, never entered; a mount point
   * inside is refused (`FAILED_PRECONDITION`) before anything is deleted. The directory itself
   * may be a mount point: then the mounted volume is emptied, as asked.
   */
  async rmdirContents(request: RmdirContentsRequest): Promise<RmdirContentsResponse> {
    request = ownRequest(request, "rmdirContents");
    const path = await this.checked(request.path, true);
    await this.locked(path, async () => {
      let stats: Stats;
      try {
        stats = await this.host.stat(path);
      } catch (error) {
        throw fsError("list", path, error);
      }
      const top: Inspected = { kind: "directory", stats };
      await this.removeChildren(path, top, false);
      await this.removeChildren(path, top, true);
    });
    return {};
  }

  /** Creates `targetPath` as a link to the existing `sourcePath` (a directory link for directories). */
  async createSymlink(request: CreateSymlinkRequest): Promise<CreateSymlinkResponse> {
    request = ownRequest(request, "createSymlink");
    const target = await this.checked(request.targetPath, false);
    // Only as written: a staging path may itself be a mount or an SMB link, and creating a link
    // changes nothing at its source (anything later done through the link is checked then).
    const source = this.checkedAsWritten(request.sourcePath);
    await this.locked(target, async () => {
      let isDirectory: boolean;
      try {
        isDirectory = (await this.host.stat(source)).isDirectory();
      } catch (error) {
        throw fsError("link to", source, error);
      }
      try {
        await this.host.symlink(source, target, isDirectory ? "dir" : "file");
      } catch (error) {
        throw fsError("create link", target, error);
      }
    });
    return {};
  }

  /**
   * True for a link or mount point whose target exists, false for a dangling link or a plain
   * file or directory; `NOT_FOUND` when nothing is at the path.
   */
  async isSymlink(request: IsSymlinkRequest): Promise<IsSymlinkResponse> {
    request = ownRequest(request, "isSymlink");
    const path = await this.checked(request.path, false);
    let stats;
    try {
      stats = await this.host.lstat(path);
    } catch (error) {
      throw fsError("inspect", path, error);
    }
    if (stats.isSymbolicLink()) return { isSymlink: await this.resolves(path) };
    if (!stats.isDirectory()) return { isSymlink: false };
    // A mount point lstat()s as the volume's root on Windows; upstream calls it a link.
    const kind = await this.kindOf(path, stats);
    return {
      isSymlink: kind === "mount" || kind === "unlisted" ? await this.resolves(path) : false,
    };
  }

  private get paths(): typeof win32 {
    return this.rules.style === "windows" ? win32 : posix;
  }

  private async checked(path: unknown, followFinal: boolean): Promise<string> {
    const normalized = normalizePath(path, this.rules);
    await this.sandbox.check(normalized, followFinal);
    return normalized;
  }

  private checkedAsWritten(path: unknown): string {
    const normalized = normalizePath(path, this.rules);
    this.sandbox.checkAsWritten(normalized);
    return normalized;
  }

  private locked(path: string, work: () => Promise<void>): Promise<void> {
    const key = this.fold(path);
    return this.locks.run(`path:${key}`, work);
  }

  private async resolves(path: string): Promise<boolean> {
    try {
      await this.host.stat(path);
      return true;
    } catch (error) {
      if (missing.has(errnoCode(error) ?? "")) return false;
      throw fsError("follow", path, error);
    }
  }

  private fold(name: string): string {
    return this.rules.style === "windows" ? foldWindowsName(name) : name;
  }

  /** The top path of a removal; `undefined` when it is missing and that is success. */
  private async inspectTop(path: string, force: boolean): Promise<Inspected | undefined> {
    let stats: Stats;
    try {
      stats = await this.host.lstat(path);
    } catch (error) {
      if (force && missing.has(errnoCode(error) ?? "")) return undefined;
      throw fsError("remove", path, error);
    }
    return { kind: await this.kindOf(path, stats), stats };
  }

  /** {@link entryKind} of a path, asking its parent's listing and device. */
  private async kindOf(path: string, stats: Stats): Promise<EntryKind> {
    if (stats.isSymbolicLink() || !stats.isDirectory()) return entryKind(stats, false, stats.dev);
    const parent = this.paths.dirname(path);
    if (parent === path) return "directory";
    let entries: DirectoryEntry[];
    let parentStats: Stats;
    try {
      [entries, parentStats] = await Promise.all([
        this.host.readdir(parent),
        this.host.stat(parent),
      ]);
    } catch (error) {
      throw fsError("inspect", parent, error);
    }
    const entry = findEntry(entries, this.paths.basename(path), (name) => this.fold(name));
    return entryKind(stats, entry?.isSymbolicLink(), parentStats.dev);
  }

  /**
   * Removes one entry (`remove` false: only checks that it could be). With `recursive`, a
   * directory is emptied first; links are removed as links; mount points are refused.
   */
  private async removeEntry(
    path: string,
    entry: Inspected,
    recursive: boolean,
    remove: boolean,
  ): Promise<void> {
    if (entry.kind === "mount" || entry.kind === "unlisted")
      throw mountPointError(path, entry.kind);
    try {
      if (entry.kind === "file" || entry.kind === "link") {
        if (remove) await this.unlinkEntry(path, entry.kind === "link");
        return;
      }
      if (recursive) await this.removeChildren(path, entry, remove);
      if (remove) await this.host.rmdir(path);
    } catch (error) {
      if (error instanceof CsiProxyError) throw error;
      throw fsError("remove", path, error);
    }
  }

  private async removeChildren(path: string, dir: Inspected, remove: boolean): Promise<void> {
    let entries: DirectoryEntry[];
    try {
      entries = await this.host.readdir(path);
    } catch (error) {
      if (!remove || !missing.has(errnoCode(error) ?? "")) throw fsError("list", path, error);
      return;
    }
    for (const child of entries) {
      const childPath = this.paths.join(path, child.name);
      let stats: Stats;
      try {
        stats = await this.host.lstat(childPath);
      } catch (error) {
        if (missing.has(errnoCode(error) ?? "")) continue;
        throw fsError("remove", childPath, error);
      }
      const kind = entryKind(stats, child.isSymbolicLink(), dir.stats.dev);
      await this.removeEntry(childPath, { kind, stats }, true, remove);
    }
  }

  private async unlinkEntry(path: string, isLink: boolean): Promise<void> {
    try {
      await this.host.unlink(path);
    } catch (error) {
      // Windows removes directory links with rmdir, not unlink.
      if (!isLink || (errnoCode(error) !== "EPERM" && errnoCode(error) !== "EISDIR")) throw error;
      await this.host.rmdir(path);
    }
  }
}

interface Inspected {
  readonly kind: EntryKind;
  readonly stats: Stats;
}

function mountPointError(path: string, kind: "mount" | "unlisted"): CsiProxyError {
  const what =
    kind === "mount"
      ? "is a mount point (it leads to another volume)"
      : "is a directory its parent's listing does not show, so it may be a mount point";
  return new CsiProxyError(
    `${path} ${what}; nothing was removed. Unmount the volume first (Volume.unmountVolume), ` +
      "then remove the folder.",
    { code: "FAILED_PRECONDITION" },
  );
}
