import { win32 } from "node:path";
import type { FilesystemHost } from "@csi-proxy/filesystem";
import { normalizePath } from "@csi-proxy/exec";
import type { PathMapping } from "../paths.js";

/** Where a request's Windows path leads once the host has followed its links, or undefined. */
export type PathResolver = (
  windowsPath: string,
  followFinal: boolean,
) => Promise<string | undefined>;

function missing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Resolves the longest existing prefix of a path's parent on the host (symlinks and junctions
 * followed, as the filesystem group does; a volume mount point is a folder, not a link) and
 * re-attaches the rest. The last name is followed only when asked (a new link's source): IsSymlink,
 * Rmdir and an SMB mapping's link act on the link itself, whose target may rightly be a share. Undefined when it leads where
 * no request could name (off the simulated drive).
 */
export function createPathResolver(host: FilesystemHost, mapping: PathMapping): PathResolver {
  return async (windowsPath, followFinal) => {
    const rest: string[] = followFinal ? [] : [win32.basename(windowsPath)];
    let current = followFinal ? windowsPath : win32.dirname(windowsPath);
    if (current === windowsPath && !followFinal) return windowsPath;
    for (;;) {
      try {
        await host.lstat(mapping.toHost(current));
        break;
      } catch (error) {
        if (!missing(error)) throw error;
      }
      const parent = win32.dirname(current);
      if (parent === current) return windowsPath;
      rest.unshift(win32.basename(current));
      current = parent;
    }
    const real = mapping.fromHost(await host.realpath(mapping.toHost(current)));
    if (real === undefined) return undefined;
    return normalizePath(win32.join(real, ...rest), { style: "windows" });
  };
}
