import { posix, win32 } from "node:path";
import {
  CsiProxyError,
  isCsiProxyError,
  isWithin,
  normalizePath,
  type PathRuleOptions,
} from "@csi-proxy/exec";
import { errnoCode, fsError } from "./fs-errors.js";
import type { FilesystemHost } from "./host.js";

/**
 * Upstream v1's working-directory restriction, done properly: a separator boundary,
 * case-insensitive on Windows, and checked again after resolving links, so a link inside an
 * allowed root cannot lead an operation outside it.
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

  /**
   * Throws `PERMISSION_DENIED` unless `path` (normalised) lies inside an allowed root, both as
   * written and once resolved. `followFinal` says whether the last component will be followed
   * (mkdir through a link) or acted on itself (removing a link). With `refuseRoot`, a path that
   * is an allowed root itself, as written or once resolved, is refused too: a removal must never
   * take the node's root away from every caller. Resolves through `host`.
   */
  async check(
    path: string,
    followFinal: boolean,
    host: FilesystemHost,
    refuseRoot = false,
  ): Promise<void> {
    if (!this.enabled) return;
    this.checkAsWritten(path);
    let resolved: string;
    let realRoots: string[];
    try {
      resolved = await this.resolve(path, followFinal, host);
      realRoots = await Promise.all(this.roots.map((root) => this.resolve(root, true, host)));
    } catch (error) {
      // A link loop or an over-long path gets a code, not a raw Node error.
      throw isCsiProxyError(error) ? error : fsError("resolve", path, error);
    }
    const allowed = [...this.roots, ...realRoots];
    if (!allowed.some((root) => isWithin(resolved, root, this.rules.style))) {
      throw this.denied(path, `resolves to ${resolved}, outside the allowed roots`);
    }
    if (refuseRoot && (this.isRoot(path, this.roots) || this.isRoot(resolved, allowed))) {
      throw this.denied(path, "is an allowed root itself, which belongs to the node");
    }
  }

  /** Throws `PERMISSION_DENIED` unless `path`, as written (normalised), lies inside an allowed root. */
  checkAsWritten(path: string): void {
    if (!this.enabled) return;
    if (!this.roots.some((root) => isWithin(path, root, this.rules.style))) {
      throw this.denied(path, "is not within the allowed roots");
    }
  }

  private isRoot(path: string, roots: readonly string[]): boolean {
    const style = this.rules.style;
    return roots.some((root) => isWithin(path, root, style) && isWithin(root, path, style));
  }

  /** Resolves links in the longest existing prefix of `path` and re-attaches the rest. */
  private async resolve(path: string, followFinal: boolean, host: FilesystemHost): Promise<string> {
    const paths = this.rules.style === "windows" ? win32 : posix;
    const rest: string[] = [];
    let current = path;
    if (!followFinal) {
      rest.unshift(paths.basename(current));
      current = paths.dirname(current);
    }
    for (;;) {
      try {
        await host.lstat(current);
        break;
      } catch (error) {
        const code = errnoCode(error);
        if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      }
      const parent = paths.dirname(current);
      if (parent === current) return path;
      rest.unshift(paths.basename(current));
      current = parent;
    }
    const real = await host.realpath(current);
    return normalizePath(paths.join(real, ...rest), this.rules);
  }

  private denied(path: string, why: string): CsiProxyError {
    return new CsiProxyError(`The path ${path} ${why} (${this.roots.join(", ")}).`, {
      code: "PERMISSION_DENIED",
    });
  }
}
