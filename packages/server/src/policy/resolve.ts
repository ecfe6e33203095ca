import { dirname, isAbsolute, join } from "node:path";
import { win32 } from "node:path";
import type { FilesystemHost } from "@csi-proxy/filesystem";
import { normalizePath } from "@csi-proxy/exec";
import type { PathMapping } from "../paths.js";

/**
 * Where a request's Windows path leads once the host has followed its links: a local Windows
 * path, or an SMB remote path with the link that leads there (`via`: a mapping's local path).
 */
export type Resolved =
  { readonly local: string } | { readonly remote: string; readonly via: string };

/** Resolves a request's path on the host; undefined when it leads where no request could name. */
export type PathResolver = (
  windowsPath: string,
  followFinal: boolean,
) => Promise<Resolved | undefined>;

// Windows gives up after 63 reparse points in one path; Linux after 40.
const maxLinks = 40;

function missing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Follows a path's links one name at a time on the host (symlinks and junctions, as the
 * filesystem group does; a volume mount point is a folder, not a link) and re-attaches what does
 * not exist yet. The last name is followed only when asked: IsSymlink, Rmdir and a new link act on
 * the name itself. A link to an SMB remote path (an SMB global mapping's local path) ends the
 * walk there, unread: the share is not opened to decide.
 */
export function createPathResolver(host: FilesystemHost, mapping: PathMapping): PathResolver {
  return async (windowsPath, followFinal) => {
    let names = windowsPath.slice(3).split("\\").filter(Boolean);
    let current = windowsPath.slice(0, 3);
    for (let links = 0; ;) {
      const [name, ...rest] = names;
      if (name === undefined) return { local: normalizePath(current, { style: "windows" }) };
      const next = win32.join(current, name);
      if (rest.length === 0 && !followFinal) return { local: next };
      const at = mapping.toHost(next);
      let isLink: boolean;
      try {
        isLink = (await host.lstat(at)).isSymbolicLink();
      } catch (error) {
        if (!missing(error)) throw error;
        return { local: win32.join(next, ...rest) };
      }
      if (!isLink) {
        current = next;
        names = rest;
        continue;
      }
      if (++links > maxLinks) throw Object.assign(new Error("too many links"), { code: "ELOOP" });
      const stored = await host.readlink(at);
      const target = isAbsolute(stored) ? stored : join(dirname(at), stored);
      const remote = mapping.remoteOf(target);
      if (remote !== undefined) return { remote: win32.join(remote, ...rest), via: next };
      const local = mapping.fromHost(target);
      if (local === undefined) return undefined;
      current = local.slice(0, 3);
      names = [...local.slice(3).split("\\").filter(Boolean), ...rest];
    }
  };
}
