import { posix, win32 } from "node:path";
import {
  type CallContext,
  CsiProxyError,
  isCsiProxyError,
  isWithin,
  normalizePath,
  type PathRuleOptions,
} from "@csi-proxy/exec";
import type { Boundaries } from "./boundaries.js";
import type { DeadlineHost } from "./deadline-host.js";
import { errnoCode, fsError } from "./fs-errors.js";
import { nothingHeld, type HeldDirectory } from "./held-directory.js";
import { inspectEntry } from "./inspect.js";
import type { PathEntry } from "./reparse.js";

/**
 * Where a call acts, found by {@link Sandbox.locate}: `at` is reached through folders held for
 * the call, so no rename between the check and the act can send it elsewhere.
 */
export interface Located {
  /** The host path to act on. */
  readonly at: string;
  /** Where it lies, links resolved (for messages and the root rule). */
  readonly real: string;
  /** The names still missing below `at`, outermost first (`at` is then their existing parent). */
  readonly missing: readonly string[];
  /** The root itself is missing: `at` is the root, to be created by name. */
  readonly rootMissing?: boolean;
  /** The last name, to be followed, is no folder: `at` is its name, never to be entered. */
  readonly notDirectory?: boolean;
  /**
   * Where the path leads, as no rename on its way can change it: `\\?\Volume{guid}\...` when it
   * passed a volume mount point (the names below it), `\\server\share\...` when it ended at a
   * link to a share. Asked for with `pin`; undefined when the path leads to neither.
   */
  readonly pinned?: string;
  /** The walk passed a volume mount point: `at` lies in a volume mounted inside the roots. */
  readonly pastVolume?: boolean;
  /** Lets the held folders go; call once the act is over. */
  release(): Promise<void>;
}

// Windows allows 63 reparse points in a path (ERROR_CANT_RESOLVE_FILENAME past it); Linux 40.
const maxLinks = 40;

function changed(path: string, cause: unknown): CsiProxyError {
  return new CsiProxyError(`${path} changed while it was being looked up; retry the call.`, {
    code: "CONFLICT",
    cause,
  });
}

/**
 * Upstream v1's working-directory restriction, done properly: a separator boundary,
 * case-insensitive on Windows, and every link on the way checked where it leads as the walk
 * reaches it, on folders held open from the check to the act, so neither a link inside an
 * allowed root nor a process swapping folders while the call runs can lead it outside.
 */
export class Sandbox {
  private readonly roots: readonly string[];

  constructor(
    roots: readonly string[] | undefined,
    private readonly rules: PathRuleOptions,
    private readonly boundaries: Boundaries = {},
  ) {
    this.roots = (roots ?? []).map((root) => normalizePath(root, rules));
  }

  /** The same roots and rules, with other boundaries. */
  withBoundaries(boundaries: Boundaries): Sandbox {
    return new Sandbox(this.roots, this.rules, boundaries);
  }

  get enabled(): boolean {
    return this.roots.length > 0;
  }

  /** The roots, normalised. */
  get allowedRoots(): readonly string[] {
    return this.roots;
  }

  /** Whether every one of `roots` lies inside one of this sandbox's roots (any, without roots). */
  covers(roots: readonly string[]): boolean {
    return !this.enabled || roots.every((root) => this.within(root, this.roots));
  }

  /**
   * Finds where `path` (normalised) leads, inside the allowed roots, and holds the folders on the
   * way. `followFinal` says whether a link at the last name is followed (mkdir through a link) or
   * acted on itself (removing a link). `PERMISSION_DENIED` when the path, as written or where any
   * link on the way leads, lies outside every root; with `refuseRoot`, also when it is a root
   * itself (a removal never takes the node's folder away from every caller). Without roots, the
   * path is acted on by name.
   */
  async locate(
    path: string,
    followFinal: boolean,
    host: DeadlineHost,
    refuseRoot = false,
    pin = false,
  ): Promise<Located> {
    if (!this.enabled) {
      if (!pin) return { at: path, real: path, missing: [], release: nothingHeld };
      // Pinning needs the walk: from the path's own root, by the same rules.
      const root = this.paths.parse(path).root;
      return new Sandbox([root], this.rules, this.boundaries).locate(path, true, host, false, true);
    }
    this.checkAsWritten(path);
    const held: HeldDirectory[] = [];
    const release = async () => {
      await Promise.all(held.splice(0).map((directory) => directory.close()));
    };
    try {
      const located = await this.walk(path, followFinal, host, held, pin);
      if (refuseRoot && located.missing.length === 0 && this.isRoot(path, located.real)) {
        throw this.denied(path, "is an allowed root itself, which belongs to the node");
      }
      return { ...located, release };
    } catch (error) {
      await release();
      // A link loop or an over-long path gets a code, not a raw Node error.
      throw isCsiProxyError(error) ? error : fsError("resolve", path, error);
    }
  }

  /** Throws `PERMISSION_DENIED` unless `path`, as written (normalised), lies inside an allowed root. */
  checkAsWritten(path: string): void {
    if (!this.enabled) return;
    if (!this.within(path, this.roots)) {
      throw this.denied(path, "is not within the allowed roots");
    }
  }

  private get paths(): typeof win32 {
    return this.rules.style === "windows" ? win32 : posix;
  }

  private within(path: string, roots: readonly string[]): boolean {
    return roots.some((root) => isWithin(path, root, this.rules.style));
  }

  // A root may be reached through a link of the node's: a link to its real path is inside too.
  private async realRoots(host: DeadlineHost): Promise<string[]> {
    const out: string[] = [];
    for (const root of this.roots) {
      try {
        out.push(normalizePath(await host.realpath(root), this.rules));
      } catch (error) {
        if (errnoCode(error) !== "ENOENT") throw fsError("resolve", root, error);
      }
    }
    return out;
  }

  /** The innermost root that `path` lies in, with the names below it. */
  private split(
    path: string,
    roots: readonly string[],
  ): { root: string; names: string[] } | undefined {
    const style = this.rules.style;
    const root = roots
      .filter((r) => isWithin(path, r, style))
      .sort((a, b) => b.length - a.length)[0];
    if (root === undefined) return undefined;
    const rest = this.paths.relative(root, path);
    return { root, names: rest === "" ? [] : rest.split(this.paths.sep) };
  }

  private isRoot(path: string, real: string): boolean {
    const style = this.rules.style;
    const same = (a: string, b: string) => isWithin(a, b, style) && isWithin(b, a, style);
    return this.roots.some((root) => same(path, root) || same(real, root));
  }

  /**
   * Walks from the root down, one name at a time: each folder is held before the next name is
   * looked up in it, and each link is read and the walk restarted where it leads, which must be
   * inside a root (the roots themselves and the folders above them are the node's, not a
   * caller's, so they are reached by name).
   */
  private async walk(
    path: string,
    followFinal: boolean,
    host: DeadlineHost,
    held: HeldDirectory[],
    pin: boolean,
  ): Promise<Omit<Located, "release">> {
    const paths = this.paths;
    // Needed only once a link is followed: most calls follow none.
    let roots: string[] | undefined;
    let start = this.split(path, this.roots);
    let links = 0;
    // The last volume passed and the names below it: where the path leads, pinned.
    let volume: { id: string; below: string[] } | undefined;
    // The volume's root keeps its `\`: without it, `\\?\Volume{guid}` is the volume device.
    const pinned = (extra: readonly string[] = []) =>
      volume === undefined ? undefined : volume.id + [...volume.below, ...extra].join("\\");
    for (;;) {
      if (start === undefined) throw this.denied(path, "leads outside the allowed roots");
      const { root, names } = start;
      let real = root;
      let at: string;
      try {
        const rootPath = await host.realpath(root);
        // A root is acted on by name: a held folder's own path is no name of it (Linux: a link).
        if (names.length === 0 && !followFinal) return { at: rootPath, real, missing: [] };
        const directory = await host.openDirectory(rootPath);
        held.push(directory);
        at = directory.path;
      } catch (error) {
        if (errnoCode(error) !== "ENOENT") throw error;
        // The root is not there yet: it and everything below it are to be created by name.
        return { at: root, real: root, missing: names, rootMissing: true };
      }
      let next: { root: string; names: string[] } | undefined;
      for (let i = 0; i < names.length; i++) {
        const name = names[i] as string;
        const child = paths.join(at, name);
        const last = i === names.length - 1;
        if (last && !followFinal) {
          return {
            at: child,
            real: paths.join(real, name),
            missing: [],
            ...(volume === undefined ? {} : { pastVolume: true }),
          };
        }
        let entry: PathEntry;
        try {
          entry = await inspectEntry(host, child, host.context);
        } catch (error) {
          const code = errnoCode(error);
          // lstat said link, readlink says none: it changed between two looks.
          if (code === "EINVAL") throw changed(path, error);
          if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
          return { at, real, missing: names.slice(i), ...withPin(pinned(names.slice(i))) };
        }
        if (entry.kind === "opaque") {
          throw this.denied(path, "leads through a reparse point that is not followed");
        }
        if (entry.kind === "share") {
          const remote = [entry.remotePath, ...names.slice(i + 1)].join("\\");
          // The link's own path, not the held folder's /proc name: the decider maps it.
          const via = { path: paths.join(real, name), pastVolume: volume !== undefined };
          if (
            !pin ||
            !(await this.allowed(() => this.boundaries.share?.(remote, via, host.context)))
          ) {
            throw this.denied(path, "leads outside the allowed roots");
          }
          return { at: child, real: paths.join(real, name), missing: [], pinned: remote };
        }
        if (entry.kind === "link") {
          if (++links > maxLinks)
            throw Object.assign(new Error("too many links"), { code: "ELOOP" });
          const target = entry.target;
          const resolved = normalizePath(
            paths.isAbsolute(target) ? target : paths.join(real, target),
            this.rules,
          );
          const rest = names.slice(i + 1);
          roots ??= [...this.roots, ...(await this.realRoots(host))];
          const split = this.split(resolved, roots);
          next = split && { root: split.root, names: [...split.names, ...rest] };
          if (next === undefined) throw this.denied(path, "leads outside the allowed roots");
          // Where a link leads is named by the link, which can change: no longer pinned.
          volume = undefined;
          break;
        }
        if (entry.kind === "volume") {
          const { volumeId } = entry;
          if (
            this.boundaries.volume !== undefined &&
            !(await this.allowed(() => this.boundaries.volume?.(volumeId, host.context)))
          ) {
            throw this.denied(path, "leads to a volume outside the allowed roots");
          }
          volume = { id: volumeId, below: [...entry.path] };
        } else if (volume !== undefined) {
          volume.below.push(name);
        }
        try {
          const directory = await (entry.kind === "volume"
            ? host.enterVolume(child)
            : host.openDirectory(child));
          held.push(directory);
          at = directory.path;
          real = paths.join(real, name);
        } catch (error) {
          // A file where a folder is asked for, acted on by name only by what never follows
          // it (mkdir says EEXIST); a method that would enter it refuses (`notDirectory`).
          if (errnoCode(error) === "ENOTDIR" && last) {
            return {
              at: child,
              real: paths.join(real, name),
              missing: [],
              notDirectory: true,
              ...withPin(pinned()),
            };
          }
          throw error;
        }
      }
      if (next === undefined) return { at, real, missing: [], ...withPin(pinned()) };
      start = next;
    }
  }

  /** Whether a link at `via` may lead to a share; without a share boundary, never. */
  shareAllowed(
    remotePath: string,
    via: { path: string; pastVolume: boolean },
    context: CallContext,
  ): Promise<boolean> {
    return this.allowed(() => this.boundaries.share?.(remotePath, via, context));
  }

  /** A boundary's decision; one that fails is no (its reason is the decider's to record). */
  private async allowed(decide: () => Promise<boolean> | undefined): Promise<boolean> {
    try {
      return (await decide()) === true;
    } catch (error) {
      if (isCsiProxyError(error) && (error.code === "ABORTED" || error.code === "TIMEOUT")) {
        throw error;
      }
      return false;
    }
  }

  private denied(path: string, why: string): CsiProxyError {
    // Where a link leads is not said: the caller may not be allowed to know.
    return new CsiProxyError(`The path ${path} ${why} (${this.roots.join(", ")}).`, {
      code: "PERMISSION_DENIED",
    });
  }
}

function withPin(pinned: string | undefined): { pinned?: string } {
  return pinned === undefined ? {} : { pinned };
}
