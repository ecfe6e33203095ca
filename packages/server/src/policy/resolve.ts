import { dirname, isAbsolute, join } from "node:path";
import { win32 } from "node:path";
import { inspectEntry, type FilesystemHost, type PathEntry } from "@csi-proxy/filesystem";
import { normalizePath } from "@csi-proxy/exec";
import type { PathMapping } from "../paths.js";

/**
 * Where a request's Windows path leads once the host has followed its links: a local Windows
 * path, or an SMB remote path with the link that leads there (`via`: a mapping's local path).
 * `volumes`: the volumes mounted on folders the path passed (`\\?\Volume{guid}\`), each of which
 * must be the caller's; `pastVolume`: the link to the share lies inside one of them.
 */
export type Resolved =
  | { readonly local: string; readonly volumes: readonly string[] }
  | {
      readonly remote: string;
      readonly via: string;
      readonly volumes: readonly string[];
      readonly pastVolume: boolean;
    };

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
 * Follows a path one name at a time on the host, each name classified by the filesystem group's
 * {@link inspectEntry} (its reparse data on Windows, not lstat's view), and re-attaches what does
 * not exist yet. A link to a path is followed; a volume mount point is passed and recorded, to be
 * authorised as the volume it is; a link to an SMB share ends the walk there, unread (the share
 * is not opened to decide); any other reparse point leads nowhere a request may go. The last name
 * is followed only when asked: IsSymlink, Rmdir and a new link act on the name itself.
 */
export function createPathResolver(host: FilesystemHost, mapping: PathMapping): PathResolver {
  return async (windowsPath, followFinal) => {
    let names = windowsPath.slice(3).split("\\").filter(Boolean);
    let current = windowsPath.slice(0, 3);
    const volumes: string[] = [];
    let pastVolume = false;
    for (let links = 0; ;) {
      const [name, ...rest] = names;
      if (name === undefined) {
        return { local: normalizePath(current, { style: "windows" }), volumes };
      }
      const next = win32.join(current, name);
      if (rest.length === 0 && !followFinal) return { local: next, volumes };
      const at = mapping.toHost(next);
      let entry: PathEntry;
      try {
        entry = await inspectEntry(host, at);
      } catch (error) {
        if (!missing(error)) throw error;
        return { local: win32.join(next, ...rest), volumes };
      }
      switch (entry.kind) {
        case "plain":
          current = next;
          names = rest;
          continue;
        case "opaque":
          return undefined;
        case "volume":
          volumes.push(entry.volumeId);
          pastVolume = true;
          current = next;
          names = rest;
          continue;
        case "share":
          return { remote: win32.join(entry.remotePath, ...rest), via: next, volumes, pastVolume };
        case "link": {
          if (++links > maxLinks) {
            throw Object.assign(new Error("too many links"), { code: "ELOOP" });
          }
          const target = isAbsolute(entry.target) ? entry.target : join(dirname(at), entry.target);
          const local = mapping.fromHost(target);
          if (local === undefined) return undefined;
          // Where a link leads is no longer inside the volume it lay in.
          pastVolume = false;
          current = local.slice(0, 3);
          names = [...local.slice(3).split("\\").filter(Boolean), ...rest];
        }
      }
    }
  };
}
