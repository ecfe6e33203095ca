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
import type { HeldDirectory } from "./held-directory.js";
import type { Boundaries } from "./boundaries.js";
import { inspectEntry } from "./inspect.js";
import { Sandbox, type Located } from "./sandbox.js";
import type {
  CreateSymlinkRequest,
  CreateSymlinkResponse,
  IsSymlinkRequest,
  IsSymlinkResponse,
  InspectRequest,
  InspectResponse,
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
  /**
   * What a walk inside the roots may pass beyond their own folders: another volume mounted in
   * them, a share a pinned link leads to (see {@link Boundaries}).
   */
  boundaries?: Boundaries;
}

const missing = new Set(["ENOENT", "ENOTDIR"]);

// How often mkdir walks again when a folder it made is swapped for a link before it is held.
const maxAttempts = 4;

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
  private readonly locks: ReturnType<typeof createKeyedLock>;

  constructor(options: FilesystemOptions = {}) {
    this.locks = createKeyedLock();
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
    const boundaries = objectOption(own("boundaries"), "Filesystem: boundaries") as
      Boundaries | undefined;
    this.sandbox = new Sandbox(roots as readonly string[] | undefined, this.rules, boundaries);
  }

  /**
   * A view of this Filesystem confined to `roots` (each inside this one's roots, if it has any),
   * on the same host and the same per-path locks: for a caller that may act only in its own
   * folders, such as one tenant of a shared server, and pass only the volumes and shares
   * `boundaries` allow it. `INVALID_ARGUMENT` for a root that is not a valid path,
   * `PERMISSION_DENIED` for one outside this Filesystem's roots.
   *
   * @example
   * ```ts
   * const mine = fs.confine(["C:\\var\\lib\\kubelet\\plugins\\a.csi.example.com"]);
   * await mine.rmdirContents({ path: stagingPath }); // never reaches another driver's folder
   * ```
   */
  confine(roots: readonly string[], boundaries?: Boundaries): Filesystem {
    if (!Array.isArray(roots) || roots.length === 0) {
      throw invalidArgument("confine: roots must name at least one root.");
    }
    objectOption(boundaries, "confine: boundaries");
    const normalized = roots.map((root) => normalizePath(root, this.rules));
    for (const root of normalized) this.sandbox.checkAsWritten(root);
    // Same host, rules and locks; only the sandbox differs.
    const view = Object.create(Filesystem.prototype) as Filesystem;
    Object.assign(view, {
      host: this.host,
      rules: this.rules,
      locks: this.locks,
      sandbox: new Sandbox(normalized, this.rules, boundaries),
    });
    return view;
  }

  /**
   * Whether anything exists at the path (links are not followed, so a dangling link counts, and
   * a link at the last name may lead anywhere: only the name is looked at).
   * Cancelled: a read, nothing changed; retry freely.
   */
  async pathExists(request: PathExistsRequest, options?: CallOptions): Promise<PathExistsResponse> {
    request = ownRequest(request, "pathExists");
    const path = this.normalized(request.path);
    return this.call("pathExists", options, async (host) =>
      this.within(path, false, host, async ({ at, missing: absent }) => {
        if (absent.length > 0) return { exists: false };
        try {
          await host.lstat(at);
          return { exists: true };
        } catch (error) {
          if (missing.has(errnoCode(error) ?? "")) return { exists: false };
          throw fsError("inspect", path, error);
        }
      }),
    );
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
   * Creates the directory and its parents; succeeds when it already exists. With
   * `allowedRoots`, each missing folder is created inside one held open, so a folder swapped for
   * a link while the call runs cannot carry it out of the roots.
   * Cancelled: some parents may have been created; a retry creates the rest (existing ones are
   * success).
   */
  async mkdir(request: MkdirRequest, options?: CallOptions): Promise<MkdirResponse> {
    request = ownRequest(request, "mkdir");
    const path = this.normalized(request.path);
    return this.call("mkdir", options, async (host) => {
      await this.locked(path, host, async () => {
        for (let attempt = 1; ; attempt++) {
          const done = await this.within(path, true, host, (located) =>
            this.createMissing(host, path, located),
          );
          if (done) return;
          if (attempt === maxAttempts) {
            throw new CsiProxyError(`${path} kept changing while it was being created.`, {
              code: "CONFLICT",
            });
          }
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
   * root itself is never removed (`PERMISSION_DENIED`). Each folder is held open while it is
   * emptied, so one swapped for a link meanwhile is not followed.
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
      await this.locked(path, host, () =>
        this.within(
          path,
          false,
          host,
          async ({ at, missing: absent }) => {
            if (absent.length > 0) {
              if (force) return;
              throw fsError("remove", path, notThere(path));
            }
            const top = await this.inspectTop(host, at, path, force);
            if (top === undefined) return;
            if (top.kind === "mount") return this.removeMountFolder(host, at, path);
            const entry = { at, shown: path };
            // Check the whole tree first, so a refusal leaves every file where it was.
            if (force) await this.removeEntry(host, entry, top, true, false);
            await this.removeEntry(host, entry, top, force, true);
          },
          true,
        ),
      );
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
      await this.locked(path, host, () =>
        this.within(
          path,
          true,
          host,
          async ({ at, missing: absent, notDirectory }) => {
            if (absent.length > 0) {
              throw new CsiProxyError(`Could not list ${path}: it does not exist.`, {
                code: "NOT_FOUND",
              });
            }
            // Never entered by name: a link put there meanwhile would be followed.
            if (notDirectory === true) {
              throw new CsiProxyError(`Could not list ${path}: it is not a directory.`, {
                code: "FAILED_PRECONDITION",
              });
            }
            let stats: Stats;
            try {
              stats = await host.stat(at);
            } catch (error) {
              throw fsError("list", path, error);
            }
            const top: Inspected = { kind: "directory", stats };
            const entry = { at, shown: path };
            await this.removeChildren(host, entry, top, false);
            await this.removeChildren(host, entry, top, true);
          },
          true,
        ),
      );
      return {};
    });
  }

  /**
   * Creates `targetPath` as a link to the existing `sourcePath` (a directory link for
   * directories), or with `pin` to where the source finally leads (see
   * {@link CreateSymlinkRequest.pin}). A link already at `targetPath` that leads to the same
   * place is success, so a retry converges; anything else there is `ALREADY_EXISTS`.
   * Cancelled: the link may have been created; a retry finds it and succeeds.
   */
  async createSymlink(
    request: CreateSymlinkRequest,
    options?: CallOptions,
  ): Promise<CreateSymlinkResponse> {
    request = ownRequest(request, "createSymlink");
    const target = this.normalized(request.targetPath);
    const pin = request.pin === true;
    // A share's own path, pinned: nothing to walk, the share boundary decides at the link.
    const share = pin ? shareSource(request.sourcePath) : undefined;
    // Without `pin`, only as written: a staging path may itself be a mount or an SMB link, and
    // creating a link changes nothing at its source (anything later done through it is checked then).
    const source = share ?? this.checkedAsWritten(request.sourcePath);
    return this.call("createSymlink", options, async (host) => {
      await this.locked(target, host, () =>
        this.within(target, false, host, async ({ at, real, missing: absent, pastVolume }) => {
          // A missing parent is not made: the link would be reached through unheld folders.
          if (absent.length > 0) throw fsError("create link", target, notThere(target));
          if (share !== undefined) {
            await this.shareAllowed(host, share, { path: real, pastVolume: pastVolume === true });
          }
          const { leadsTo, type } =
            share !== undefined
              ? { leadsTo: share, type: "dir" as const }
              : pin
                ? await this.pinnedSource(host, source)
                : { leadsTo: source, type: await this.linkType(host, source, source) };
          try {
            await host.symlink(leadsTo, at, type);
          } catch (error) {
            if (errnoCode(error) === "EEXIST" && (await this.linksTo(host, at, leadsTo))) return;
            throw fsError("create link", target, error);
          }
        }),
      );
      return {};
    });
  }

  /** Whether a link at `via` may lead to share path `remotePath` (the share boundary says). */
  private async shareAllowed(
    host: DeadlineHost,
    remotePath: string,
    via: { path: string; pastVolume: boolean },
  ): Promise<void> {
    if (!(await this.sandbox.shareAllowed(remotePath, via, host.context))) {
      throw new CsiProxyError(`A link at ${via.path} may not lead to ${remotePath}.`, {
        code: "PERMISSION_DENIED",
      });
    }
  }

  /** Where a pinned link to `source` leads, and its type; the source's folders are held meanwhile. */
  private async pinnedSource(
    host: DeadlineHost,
    source: string,
  ): Promise<{ leadsTo: string; type: "dir" | "file" }> {
    const located = await this.sandbox.locate(source, true, host, false, true);
    try {
      if (located.missing.length > 0) throw fsError("link to", source, notThere(source));
      if (located.pinned === undefined) {
        throw new CsiProxyError(
          `${source} leads to no volume mounted on a folder and no share, so a link to it could ` +
            "be re-pointed by renaming a folder on its way; it is not linked.",
          { code: "PERMISSION_DENIED" },
        );
      }
      // A share's path is a folder; its server is not asked.
      const type = located.pinned.startsWith("\\\\?\\")
        ? await this.linkType(host, located.at, source)
        : "dir";
      return { leadsTo: located.pinned, type };
    } finally {
      await located.release();
    }
  }

  private async linkType(host: DeadlineHost, at: string, shown: string): Promise<"dir" | "file"> {
    try {
      return (await host.stat(at)).isDirectory() ? "dir" : "file";
    } catch (error) {
      throw fsError("link to", shown, error);
    }
  }

  /**
   * What the name at `path` is, links not followed (see {@link InspectResponse}): one walk, with
   * the folders on the way held, so the answer is about the name the roots allow. For a caller
   * that must compare a link's target before it acts (an SMB mapping's link).
   * Cancelled: a read, nothing changed; retry freely.
   */
  async inspect(request: InspectRequest, options?: CallOptions): Promise<InspectResponse> {
    request = ownRequest(request, "inspect");
    const path = this.normalized(request.path);
    return this.call("inspect", options, async (host) =>
      this.within(path, false, host, async ({ at, missing: absent }) => {
        if (absent.length > 0) return { kind: "missing" };
        let entry;
        try {
          entry = await inspectEntry(host, at, host.context);
        } catch (error) {
          if (missing.has(errnoCode(error) ?? "")) return { kind: "missing" };
          throw fsError("inspect", path, error);
        }
        switch (entry.kind) {
          case "link":
            return { kind: "link", target: entry.target };
          case "share":
            return { kind: "share", target: entry.remotePath };
          case "volume":
            return { kind: "volume", target: entry.volumeId + entry.path.join("\\") };
          case "opaque":
            return { kind: "opaque" };
          case "plain":
            break;
        }
        let stats: Stats;
        try {
          stats = await host.stat(at);
        } catch (error) {
          throw fsError("inspect", path, error);
        }
        if (!stats.isDirectory()) return { kind: "file" };
        let entries: DirectoryEntry[];
        try {
          entries = await host.readdir(at);
        } catch (error) {
          throw fsError("list", path, error);
        }
        return { kind: "directory", empty: entries.length === 0 };
      }),
    );
  }

  /**
   * True for a link or mount point whose target exists, false for a dangling link or a plain
   * file or directory; `NOT_FOUND` when nothing is at the path.
   * Cancelled: a read, nothing changed; retry freely.
   */
  async isSymlink(request: IsSymlinkRequest, options?: CallOptions): Promise<IsSymlinkResponse> {
    request = ownRequest(request, "isSymlink");
    const path = this.normalized(request.path);
    return this.call("isSymlink", options, async (host) =>
      this.within(path, false, host, async ({ at, missing: absent }) => {
        if (absent.length > 0) throw fsError("inspect", path, notThere(path));
        let stats;
        try {
          stats = await host.lstat(at);
        } catch (error) {
          throw fsError("inspect", path, error);
        }
        if (stats.isSymbolicLink()) return { isSymlink: await this.resolves(host, at, path) };
        if (!stats.isDirectory()) return { isSymlink: false };
        // A mount point lstat()s as the volume's root on Windows; upstream calls it a link.
        const kind = await this.kindOf(host, at, path, stats);
        return {
          isSymlink:
            kind === "mount" || kind === "unlisted" ? await this.resolves(host, at, path) : false,
        };
      }),
    );
  }

  /** Runs `act` where the path leads inside the roots, with the folders on the way held. */
  private async within<T>(
    path: string,
    followFinal: boolean,
    host: DeadlineHost,
    act: (located: Located) => Promise<T>,
    refuseRoot = false,
  ): Promise<T> {
    const located = await this.sandbox.locate(path, followFinal, host, refuseRoot);
    try {
      return await act(located);
    } finally {
      await located.release();
    }
  }

  /**
   * Creates the missing folders one at a time, each inside the one before, held open; false
   * when one became something else meanwhile (a link), so the caller walks again.
   */
  private async createMissing(
    host: DeadlineHost,
    path: string,
    located: Located,
  ): Promise<boolean> {
    const make = async (at: string) => {
      try {
        await host.mkdir(at);
      } catch (error) {
        throw fsError("create directory", path, error);
      }
    };
    if (located.rootMissing === true || located.missing.length === 0) {
      // A root is the node's, made by name; an existing path is success (or EEXIST for a file).
      await make(located.at);
      return located.missing.length === 0;
    }
    const held: HeldDirectory[] = [];
    try {
      let at = located.at;
      for (const name of located.missing) {
        const child = this.paths.join(at, name);
        await make(child);
        try {
          const directory = await host.openDirectory(child);
          held.push(directory);
          at = directory.path;
        } catch (error) {
          if (errnoCode(error) === "ELOOP") return false;
          throw fsError("create directory", path, error);
        }
      }
      return true;
    } finally {
      await Promise.all(held.map((directory) => directory.close()));
    }
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

  /** Whether `path` is a link that leads to `source` (as the host reads it back). */
  private async linksTo(host: DeadlineHost, path: string, source: string): Promise<boolean> {
    let stored: string;
    try {
      const entry = await inspectEntry(host, path, host.context);
      if (entry.kind === "share") stored = entry.remotePath;
      else if (entry.kind === "volume") stored = entry.volumeId + entry.path.join("\\");
      // libuv's readlink (src/win/fs.c, fs__readlink_handle) gives back an absolute link's
      // target without the \??\ prefix CreateSymbolicLink stored, as Node passed it.
      else if (entry.kind === "link") stored = normalizePath(entry.target, this.rules);
      else return false;
    } catch (error) {
      if (isCsiProxyError(error) && error.code !== "INVALID_ARGUMENT") throw error;
      return false;
    }
    const trimmed = (p: string) => this.fold(p.replace(/\\+$/, ""));
    return trimmed(stored) === trimmed(source);
  }

  private async resolves(host: DeadlineHost, at: string, shown: string): Promise<boolean> {
    try {
      await host.stat(at);
      return true;
    } catch (error) {
      if (missing.has(errnoCode(error) ?? "")) return false;
      throw fsError("follow", shown, error);
    }
  }

  private fold(name: string): string {
    return this.rules.style === "windows" ? foldWindowsName(name) : name;
  }

  /** The top path of a removal; `undefined` when it is missing and that is success. */
  private async inspectTop(
    host: DeadlineHost,
    at: string,
    shown: string,
    force: boolean,
  ): Promise<Inspected | undefined> {
    let stats: Stats;
    try {
      stats = await host.lstat(at);
    } catch (error) {
      if (force && missing.has(errnoCode(error) ?? "")) return undefined;
      throw fsError("remove", shown, error);
    }
    return { kind: await this.kindOf(host, at, shown, stats), stats };
  }

  /** {@link entryKind} of a path, asking its parent's listing and device. */
  private async kindOf(
    host: DeadlineHost,
    at: string,
    shown: string,
    stats: Stats,
  ): Promise<EntryKind> {
    if (stats.isSymbolicLink() || !stats.isDirectory()) return entryKind(stats, false, stats.dev);
    const parent = this.paths.dirname(at);
    if (parent === at) return "directory";
    let entries: DirectoryEntry[];
    let parentStats: Stats;
    try {
      [entries, parentStats] = await Promise.all([host.readdir(parent), host.stat(parent)]);
    } catch (error) {
      throw fsError("inspect", this.paths.dirname(shown), error);
    }
    const entry = findEntry(entries, this.paths.basename(at), (name) => this.fold(name));
    return entryKind(stats, entry?.isSymbolicLink(), parentStats.dev);
  }

  /**
   * Removes one entry (`remove` false: only checks that it could be). With `recursive`, a
   * directory is held open and emptied first; links are removed as links; mount points are
   * refused.
   */
  private async removeEntry(
    host: DeadlineHost,
    entry: Place,
    inspected: Inspected,
    recursive: boolean,
    remove: boolean,
  ): Promise<void> {
    if (inspected.kind === "mount" || inspected.kind === "unlisted")
      throw mountPointError(entry.shown, inspected.kind);
    try {
      if (inspected.kind === "file" || inspected.kind === "link") {
        if (remove) await this.unlinkEntry(host, entry.at, inspected.kind === "link");
        return;
      }
      if (recursive) {
        const held = await this.hold(host, entry);
        try {
          await this.removeChildren(host, { at: held.path, shown: entry.shown }, inspected, remove);
        } finally {
          // Let it go first: a held folder cannot be removed on every host.
          await held.close();
        }
      }
      if (remove) await host.rmdir(entry.at);
    } catch (error) {
      if (error instanceof CsiProxyError) throw error;
      throw fsError("remove", entry.shown, error);
    }
  }

  /** Holds a folder about to be entered; one that became a link since it was looked at is refused. */
  private async hold(host: DeadlineHost, entry: Place): Promise<HeldDirectory> {
    try {
      return await host.openDirectory(entry.at);
    } catch (error) {
      if (errnoCode(error) !== "ELOOP" && errnoCode(error) !== "ENOTDIR") throw error;
      throw new CsiProxyError(
        `${entry.shown} changed while it was being removed; nothing below it was touched.`,
        { code: "CONFLICT", cause: error },
      );
    }
  }

  /** Every fs call checks the deadline first, so a walk stops between two entries. */
  private async removeChildren(
    host: DeadlineHost,
    dir: Place,
    inspected: Inspected,
    remove: boolean,
  ): Promise<void> {
    let entries: DirectoryEntry[];
    try {
      entries = await host.readdir(dir.at);
    } catch (error) {
      if (!remove || !missing.has(errnoCode(error) ?? "")) throw fsError("list", dir.shown, error);
      return;
    }
    for (const child of entries) {
      const place = {
        at: this.paths.join(dir.at, child.name),
        shown: this.paths.join(dir.shown, child.name),
      };
      let stats: Stats;
      try {
        stats = await host.lstat(place.at);
      } catch (error) {
        if (missing.has(errnoCode(error) ?? "")) continue;
        throw fsError("remove", place.shown, error);
      }
      const kind = entryKind(stats, child.isSymbolicLink(), inspected.stats.dev);
      await this.removeEntry(host, place, { kind, stats }, true, remove);
    }
  }

  /**
   * Removes a mount point's own folder and nothing under it. On Windows fs.rmdir is libuv's
   * fs__unlink_rmdir, which opens the folder with FILE_FLAG_OPEN_REPARSE_POINT, so only the
   * reparse point goes ("RemoveDirectory removes a directory junction, even if the contents of
   * the target are not empty", RemoveDirectoryW remarks); a POSIX mount refuses with EBUSY.
   */
  private async removeMountFolder(host: DeadlineHost, at: string, shown: string): Promise<void> {
    try {
      await host.rmdir(at);
    } catch (error) {
      throw fsError("remove mount point", shown, error);
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

/** Where an entry is acted on (`at`, through held folders) and how messages name it. */
interface Place {
  readonly at: string;
  readonly shown: string;
}

/** A pinned link's source that is a share's UNC path itself (`\\server\share\...`), normalised. */
function shareSource(value: unknown): string | undefined {
  if (typeof value !== "string" || !/^\\\\[^\\?.][^\\]*\\[^\\]+/.test(value)) return undefined;
  if (
    value.includes("\u0000") ||
    value
      .split("\\")
      .slice(2)
      .some((s) => s === "." || s === "..")
  ) {
    throw invalidArgument(`The share path ${value} is not a plain UNC path.`);
  }
  return value.replace(/\\+$/, "");
}

/** Node's error for a name that is not there, for a walk that found a folder on the way missing. */
function notThere(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), {
    code: "ENOENT",
  });
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
