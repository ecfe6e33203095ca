import { posix, win32 } from "node:path";
import {
  CsiProxyError,
  isCsiProxyError,
  isWithin,
  normalizePath,
  type PathRuleOptions,
} from "@csi-proxy/exec";
import type { DeadlineHost } from "./deadline-host.js";
import { errnoCode, fsError } from "./fs-errors.js";
import { nothingHeld, type HeldDirectory } from "./held-directory.js";

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
  ) {
    this.roots = (roots ?? []).map((root) => normalizePath(root, rules));
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
  ): Promise<Located> {
    if (!this.enabled) return { at: path, real: path, missing: [], release: nothingHeld };
    this.checkAsWritten(path);
    const held: HeldDirectory[] = [];
    const release = async () => {
      await Promise.all(held.splice(0).map((directory) => directory.close()));
    };
    try {
      const located = await this.walk(path, followFinal, host, held);
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
  ): Promise<Omit<Located, "release">> {
    const paths = this.paths;
    // Needed only once a link is followed: most calls follow none.
    let roots: string[] | undefined;
    let start = this.split(path, this.roots);
    let links = 0;
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
        if (last && !followFinal) return { at: child, real: paths.join(real, name), missing: [] };
        let isLink: boolean;
        try {
          isLink = (await host.lstat(child)).isSymbolicLink();
        } catch (error) {
          const code = errnoCode(error);
          if (code !== "ENOENT") throw error;
          return { at, real, missing: names.slice(i) };
        }
        if (isLink) {
          if (++links > maxLinks)
            throw Object.assign(new Error("too many links"), { code: "ELOOP" });
          let target: string;
          try {
            target = await host.readlink(child);
          } catch (error) {
            // No longer a link: it changed between two looks.
            if (errnoCode(error) !== "EINVAL") throw error;
            throw changed(path, error);
          }
          const resolved = normalizePath(
            paths.isAbsolute(target) ? target : paths.join(real, target),
            this.rules,
          );
          const rest = names.slice(i + 1);
          roots ??= [...this.roots, ...(await this.realRoots(host))];
          const split = this.split(resolved, roots);
          next = split && { root: split.root, names: [...split.names, ...rest] };
          if (next === undefined) throw this.denied(path, "leads outside the allowed roots");
          break;
        }
        try {
          const directory = await host.openDirectory(child);
          held.push(directory);
          at = directory.path;
          real = paths.join(real, name);
        } catch (error) {
          // A file where a folder is asked for, acted on by name only by what never follows
          // it (mkdir says EEXIST); a method that would enter it refuses (`notDirectory`).
          if (errnoCode(error) === "ENOTDIR" && last) {
            return { at: child, real: paths.join(real, name), missing: [], notDirectory: true };
          }
          throw error;
        }
      }
      if (next === undefined) return { at, real, missing: [] };
      start = next;
    }
  }

  private denied(path: string, why: string): CsiProxyError {
    // Where a link leads is not said: the caller may not be allowed to know.
    return new CsiProxyError(`The path ${path} ${why} (${this.roots.join(", ")}).`, {
      code: "PERMISSION_DENIED",
    });
  }
}
