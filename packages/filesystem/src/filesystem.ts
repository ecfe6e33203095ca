import {
  createKeyedLock,
  CsiProxyError,
  invalidArgument,
  normalizePath,
  platformPathStyle,
  type PathRuleOptions,
  type PathStyle,
} from "@csi-proxy/exec";
import { posix, win32 } from "node:path";
import { errnoCode, fsError } from "./fs-errors.js";
import { createNodeFilesystemHost, type FilesystemHost } from "./host.js";
import { Sandbox } from "./sandbox.js";
import type {
  CreateSymlinkRequest,
  IsSymlinkRequest,
  IsSymlinkResponse,
  MkdirRequest,
  PathExistsRequest,
  PathExistsResponse,
  PathValidRequest,
  PathValidResponse,
  RmdirContentsRequest,
  RmdirRequest,
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
    this.host = options.host ?? createNodeFilesystemHost();
    this.rules = {
      style: options.pathStyle ?? platformPathStyle(),
      ...(options.systemDrive === undefined ? {} : { systemDrive: options.systemDrive }),
    };
    this.sandbox = new Sandbox(options.allowedRoots, this.rules, this.host);
  }

  /** Whether anything exists at the path (links are not followed, so a dangling link counts). */
  async pathExists(request: PathExistsRequest): Promise<PathExistsResponse> {
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
  async mkdir(request: MkdirRequest): Promise<void> {
    const path = await this.checked(request.path, true);
    await this.locked(path, async () => {
      try {
        await this.host.mkdir(path);
      } catch (error) {
        throw fsError("create directory", path, error);
      }
    });
  }

  /**
   * Removes a directory (or file or link). Without `force` it must exist and be empty; with
   * `force` it is removed recursively, without following links or mount points, and a missing
   * path is success.
   */
  async rmdir(request: RmdirRequest): Promise<void> {
    const path = await this.checked(request.path, false);
    await this.locked(path, () => this.removeEntry(path, request.force === true));
  }

  /** Empties a directory, keeping it; links and mount points inside are removed, never entered. */
  async rmdirContents(request: RmdirContentsRequest): Promise<void> {
    const path = await this.checked(request.path, true);
    await this.locked(path, async () => {
      let names: string[];
      try {
        names = await this.host.readdir(path);
      } catch (error) {
        throw fsError("list", path, error);
      }
      for (const name of names) await this.removeEntry(this.paths.join(path, name), true);
    });
  }

  /** Creates `targetPath` as a link to the existing `sourcePath` (a directory link for directories). */
  async createSymlink(request: CreateSymlinkRequest): Promise<void> {
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
  }

  /**
   * True for a link or mount point whose target exists, false for a dangling link or a plain
   * file or directory; `NOT_FOUND` when nothing is at the path.
   */
  async isSymlink(request: IsSymlinkRequest): Promise<IsSymlinkResponse> {
    const path = await this.checked(request.path, false);
    let stats;
    try {
      stats = await this.host.lstat(path);
    } catch (error) {
      throw fsError("inspect", path, error);
    }
    if (stats.isSymbolicLink()) return { isSymlink: await this.resolves(path) };
    if (stats.isDirectory() && (await this.isMountPoint(path))) return { isSymlink: true };
    return { isSymlink: false };
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
    const key = this.rules.style === "windows" ? path.toLowerCase() : path;
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

  /**
   * Whether a directory is a volume mount point. libuv reports Windows volume mount points as
   * plain directories, so compare where the OS says the folder really is with where its
   * parent's real path says it should be.
   */
  private async isMountPoint(path: string): Promise<boolean> {
    if (this.rules.style !== "windows") return false;
    const parent = this.paths.dirname(path);
    if (parent === path) return false;
    try {
      const [real, realParent] = await Promise.all([
        this.host.realpathNative(path),
        this.host.realpathNative(parent),
      ]);
      const fold = (p: string) =>
        p
          .replace(/^\\\\\?\\/, "")
          .replace(/\\$/, "")
          .toLowerCase();
      return fold(real) !== fold(this.paths.join(realParent, this.paths.basename(path)));
    } catch (error) {
      throw fsError("inspect", path, error);
    }
  }

  /** Removes one entry; with `recursive`, directories are emptied first without entering links. */
  private async removeEntry(path: string, recursive: boolean): Promise<void> {
    let stats;
    try {
      stats = await this.host.lstat(path);
    } catch (error) {
      if (recursive && missing.has(errnoCode(error) ?? "")) return;
      throw fsError("remove", path, error);
    }
    try {
      if (!stats.isDirectory()) {
        await this.unlinkEntry(path, stats.isSymbolicLink());
        return;
      }
      // A mount point is removed as a folder; the volume behind it is never entered.
      if (recursive && !(await this.isMountPoint(path))) {
        for (const name of await this.host.readdir(path))
          await this.removeEntry(this.paths.join(path, name), true);
      }
      await this.host.rmdir(path);
    } catch (error) {
      if (error instanceof CsiProxyError) throw error;
      throw fsError("remove", path, error);
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
