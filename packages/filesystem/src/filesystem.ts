import {
  createKeyedLock,
  CsiProxyError,
  foldWindowsName,
  withCallContext,
  type CallOptions,
  groupOptions,
  invalidArgument,
  isCsiProxyError,
  objectOption,
  pathStyleOption,
  normalizePath,
  ownRequest,
  type PathRuleOptions,
  type PathStyle,
} from "@csi-proxy/exec";
import type { Stats } from "node:fs";
import { posix, win32 } from "node:path";
import { deadlineHost, type DeadlineHost } from "./deadline-host.js";
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
 * in-process: no PowerShell, no process per call. Every method also takes
 * `{ signal?, timeoutMs?, deadline? }`: one deadline for the whole call, lock wait and every fs call
 * included (`ABORTED`/`TIMEOUT`).
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
    this.sandbox = new Sandbox(roots as readonly string[] | undefined, this.rules);
  }

  /**
   * Whether anything exists at the path (links are not followed, so a dangling link counts).
   * Cancelled: a read, nothing changed; retry freely.
   */
  async pathExists(request: PathExistsRequest, options?: CallOptions): Promise<PathExistsResponse> {
    request = ownRequest(request, "pathExists");
    const path = this.normalized(request.path);
    return this.call("pathExists", options, async (host) => {
      await this.sandbox.check(path, false, host);
      try {
        await host.lstat(path);
        return { exists: true };
      } catch (error) {
        if (missing.has(errnoCode(error) ?? "")) return { exists: false };
        throw fsError("inspect", path, error);
      }
    });
  }

  /**
   * Whether the path resolves (links followed). Takes any path Windows can open, such as an SMB
   * share, so it applies no path rules or sandbox, as upstream's PathValid. A share that does
   * not answer is given up at the deadline (`TIMEOUT`), though Node's call runs on.
   * Cancelled: a read, nothing changed; retry freely.
   */
  async pathValid(request: PathValidRequest, options?: CallOptions): Promise<PathValidResponse> {
    request = ownRequest(request, "pathValid");
    const { path } = request;
    if (typeof path !== "string" || path === "") throw invalidArgument("The path is empty.");
    if (path.includes("\u0000")) throw invalidArgument("The path contains a NUL character.");
    return this.call("pathValid", options, async (host) => {
      try {
        await host.stat(path);
        return { valid: true };
      } catch (error) {
        const code = errnoCode(error) ?? "";
        if (missing.has(code) || code === "EINVAL" || code === "ENAMETOOLONG")
          return { valid: false };
        throw fsError("inspect", path, error);
      }
    });
  }

  /**
   * Creates the directory and its parents; succeeds when it already exists.
   * Cancelled: some parents may have been created; a retry creates the rest (existing ones are
   * success).
   */
  async mkdir(request: MkdirRequest, options?: CallOptions): Promise<MkdirResponse> {
    request = ownRequest(request, "mkdir");
    const path = this.normalized(request.path);
    return this.call("mkdir", options, async (host) => {
      await this.sandbox.check(path, true, host);
      await this.locked(path, host, async () => {
        try {
          await host.mkdir(path);
        } catch (error) {
          throw fsError("create directory", path, error);
        }
      });
      return {};
    });
  }

  /**
   * Removes a directory (or file or link). Without `force` it must exist and be empty; with
   * `force` it is removed recursively, and a missing path is success. Links and junctions are
   * removed as links, never followed. When the path itself is a volume mount point (the CSI
   * staging folder), only the mount folder is removed, with or without `force`, as upstream's
   * `os.RemoveAll`/`os.Remove` do through RemoveDirectory: the volume is unmounted from that
   * folder and keeps every file, and can be mounted elsewhere. A mount point anywhere below the
   * path is never entered or removed: `FAILED_PRECONDITION`, and nothing is deleted. An allowed
   * root itself is never removed (`PERMISSION_DENIED`).
   * Cancelled: with `force`, part of the tree may be removed (never a mount point: the check
   * pass ends before anything is removed); a retry runs the check pass again on what is left and
   * removes the rest. Without `force` the one removal may have taken effect, and a retry then
   * says `NOT_FOUND`: use `force` for a removal that converges.
   */
  async rmdir(request: RmdirRequest, options?: CallOptions): Promise<RmdirResponse> {
    request = ownRequest(request, "rmdir");
    const path = this.normalized(request.path);
    const force = request.force === true;
    return this.call("rmdir", options, async (host) => {
      await this.sandbox.check(path, false, host, true);
      await this.locked(path, host, async () => {
        const top = await this.inspectTop(host, path, force);
        if (top === undefined) return;
        if (top.kind === "mount") return this.removeMountFolder(host, path);
        // Check the whole tree first, so a refusal leaves every file where it was.
        if (force) await this.removeEntry(host, path, top, true, false);
        await this.removeEntry(host, path, top, force, true);
      });
      return {};
    });
  }

  /**
   * Empties a directory, keeping it. Links inside are removed, never entered; a mount point
   * inside is refused (`FAILED_PRECONDITION`) before anything is deleted. The directory itself
   * may be a mount point: then the mounted volume is emptied, as asked. An allowed root itself
   * is never emptied (`PERMISSION_DENIED`): it holds every caller's folders.
   * Cancelled: some entries may be removed (never a mount point: the check pass ends before
   * anything is removed); a retry runs the check pass again on what is left and removes the rest.
   */
  async rmdirContents(
    request: RmdirContentsRequest,
    options?: CallOptions,
  ): Promise<RmdirContentsResponse> {
    request = ownRequest(request, "rmdirContents");
    const path = this.normalized(request.path);
    return this.call("rmdirContents", options, async (host) => {
      await this.sandbox.check(path, true, host, true);
      await this.locked(path, host, async () => {
        let stats: Stats;
        try {
          stats = await host.stat(path);
        } catch (error) {
          throw fsError("list", path, error);
        }
        const top: Inspected = { kind: "directory", stats };
        await this.removeChildren(host, path, top, false);
        await this.removeChildren(host, path, top, true);
      });
      return {};
    });
  }

  /**
   * Creates `targetPath` as a link to the existing `sourcePath` (a directory link for
   * directories). A link already at `targetPath` that leads to `sourcePath` is success, so a
   * retry converges; anything else there is `ALREADY_EXISTS`.
   * Cancelled: the link may have been created; a retry finds it and succeeds.
   */
  async createSymlink(
    request: CreateSymlinkRequest,
    options?: CallOptions,
  ): Promise<CreateSymlinkResponse> {
    request = ownRequest(request, "createSymlink");
    const target = this.normalized(request.targetPath);
    // Only as written: a staging path may itself be a mount or an SMB link, and creating a link
    // changes nothing at its source (anything later done through the link is checked then).
    const source = this.checkedAsWritten(request.sourcePath);
    return this.call("createSymlink", options, async (host) => {
      await this.sandbox.check(target, false, host);
      await this.locked(target, host, async () => {
        let isDirectory: boolean;
        try {
          isDirectory = (await host.stat(source)).isDirectory();
        } catch (error) {
          throw fsError("link to", source, error);
        }
        try {
          await host.symlink(source, target, isDirectory ? "dir" : "file");
        } catch (error) {
          if (errnoCode(error) === "EEXIST" && (await this.linksTo(host, target, source))) return;
          throw fsError("create link", target, error);
        }
      });
      return {};
    });
  }

  /**
   * True for a link or mount point whose target exists, false for a dangling link or a plain
   * file or directory; `NOT_FOUND` when nothing is at the path.
   * Cancelled: a read, nothing changed; retry freely.
   */
  async isSymlink(request: IsSymlinkRequest, options?: CallOptions): Promise<IsSymlinkResponse> {
    request = ownRequest(request, "isSymlink");
    const path = this.normalized(request.path);
    return this.call("isSymlink", options, async (host) => {
      await this.sandbox.check(path, false, host);
      let stats;
      try {
        stats = await host.lstat(path);
      } catch (error) {
        throw fsError("inspect", path, error);
      }
      if (stats.isSymbolicLink()) return { isSymlink: await this.resolves(host, path) };
      if (!stats.isDirectory()) return { isSymlink: false };
      // A mount point lstat()s as the volume's root on Windows; upstream calls it a link.
      const kind = await this.kindOf(host, path, stats);
      return {
        isSymlink:
          kind === "mount" || kind === "unlisted" ? await this.resolves(host, path) : false,
      };
    });
  }

  private get paths(): typeof win32 {
    return this.rules.style === "windows" ? win32 : posix;
  }

  /** Runs a method's fs work under its call options, on the host bound to its deadline. */
  private call<T>(
    method: string,
    options: CallOptions | undefined,
    work: (host: DeadlineHost) => Promise<T>,
  ): Promise<T> {
    return withCallContext(method, options, (context) => work(deadlineHost(this.host, context)));
  }

  private normalized(path: unknown): string {
    return normalizePath(path, this.rules);
  }

  private checkedAsWritten(path: unknown): string {
    const normalized = normalizePath(path, this.rules);
    this.sandbox.checkAsWritten(normalized);
    return normalized;
  }

  /**
   * Runs `work` holding the path's lock; a wait for it ends with the call. The method settles
   * when `work` does, but the lock is held until every fs call `work` started has returned,
   * abandoned ones included, so a retry never runs beside a removal still in flight.
   */
  private locked(path: string, host: DeadlineHost, work: () => Promise<void>): Promise<void> {
    const key = `path:${this.fold(path)}`;
    return new Promise<void>((resolve, reject) => {
      this.locks
        .run(
          key,
          async () => {
            const outcome = work();
            outcome.then(resolve, reject);
            await outcome.catch(() => undefined);
            await host.settled();
          },
          host.context.signal,
        )
        .catch(reject);
    });
  }

  /** Whether `path` is a link whose stored target is `source` (as Node reads it back). */
  private async linksTo(host: DeadlineHost, path: string, source: string): Promise<boolean> {
    let stored: string;
    try {
      if (!(await host.lstat(path)).isSymbolicLink()) return false;
      // libuv's readlink (src/win/fs.c, fs__readlink_handle) gives back an absolute link's
      // target without the \??\ prefix CreateSymbolicLink stored, as Node passed it.
      stored = normalizePath(await host.readlink(path), this.rules);
    } catch (error) {
      if (isCsiProxyError(error) && error.code !== "INVALID_ARGUMENT") throw error;
      return false;
    }
    return this.fold(stored) === this.fold(source);
  }

  private async resolves(host: DeadlineHost, path: string): Promise<boolean> {
    try {
      await host.stat(path);
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
  private async inspectTop(
    host: DeadlineHost,
    path: string,
    force: boolean,
  ): Promise<Inspected | undefined> {
    let stats: Stats;
    try {
      stats = await host.lstat(path);
    } catch (error) {
      if (force && missing.has(errnoCode(error) ?? "")) return undefined;
      throw fsError("remove", path, error);
    }
    return { kind: await this.kindOf(host, path, stats), stats };
  }

  /** {@link entryKind} of a path, asking its parent's listing and device. */
  private async kindOf(host: DeadlineHost, path: string, stats: Stats): Promise<EntryKind> {
    if (stats.isSymbolicLink() || !stats.isDirectory()) return entryKind(stats, false, stats.dev);
    const parent = this.paths.dirname(path);
    if (parent === path) return "directory";
    let entries: DirectoryEntry[];
    let parentStats: Stats;
    try {
      [entries, parentStats] = await Promise.all([host.readdir(parent), host.stat(parent)]);
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
    host: DeadlineHost,
    path: string,
    entry: Inspected,
    recursive: boolean,
    remove: boolean,
  ): Promise<void> {
    if (entry.kind === "mount" || entry.kind === "unlisted")
      throw mountPointError(path, entry.kind);
    try {
      if (entry.kind === "file" || entry.kind === "link") {
        if (remove) await this.unlinkEntry(host, path, entry.kind === "link");
        return;
      }
      if (recursive) await this.removeChildren(host, path, entry, remove);
      if (remove) await host.rmdir(path);
    } catch (error) {
      if (error instanceof CsiProxyError) throw error;
      throw fsError("remove", path, error);
    }
  }

  /** Every fs call checks the deadline first, so a walk stops between two entries. */
  private async removeChildren(
    host: DeadlineHost,
    path: string,
    dir: Inspected,
    remove: boolean,
  ): Promise<void> {
    let entries: DirectoryEntry[];
    try {
      entries = await host.readdir(path);
    } catch (error) {
      if (!remove || !missing.has(errnoCode(error) ?? "")) throw fsError("list", path, error);
      return;
    }
    for (const child of entries) {
      const childPath = this.paths.join(path, child.name);
      let stats: Stats;
      try {
        stats = await host.lstat(childPath);
      } catch (error) {
        if (missing.has(errnoCode(error) ?? "")) continue;
        throw fsError("remove", childPath, error);
      }
      const kind = entryKind(stats, child.isSymbolicLink(), dir.stats.dev);
      await this.removeEntry(host, childPath, { kind, stats }, true, remove);
    }
  }

  /**
   * Removes a mount point's own folder and nothing under it. On Windows fs.rmdir is libuv's
   * fs__unlink_rmdir, which opens the folder with FILE_FLAG_OPEN_REPARSE_POINT, so only the
   * reparse point goes ("RemoveDirectory removes a directory junction, even if the contents of
   * the target are not empty", RemoveDirectoryW remarks); a POSIX mount refuses with EBUSY.
   */
  private async removeMountFolder(host: DeadlineHost, path: string): Promise<void> {
    try {
      await host.rmdir(path);
    } catch (error) {
      throw fsError("remove mount point", path, error);
    }
  }

  private async unlinkEntry(host: DeadlineHost, path: string, isLink: boolean): Promise<void> {
    try {
      await host.unlink(path);
    } catch (error) {
      // Windows removes directory links with rmdir, not unlink.
      if (!isLink || (errnoCode(error) !== "EPERM" && errnoCode(error) !== "EISDIR")) throw error;
      await host.rmdir(path);
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
