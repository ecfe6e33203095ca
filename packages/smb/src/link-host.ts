import { lstat, mkdir, readdir, readlink, rmdir, symlink } from "node:fs/promises";
import { dirname } from "node:path";
import { noCallContext, type CallContext } from "@csi-proxy/exec";
import type { LocalEntry, SmbLinkHost } from "./host-types.js";

function errnoCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/**
 * The default {@link SmbLinkHost}: Node's `fs` in this process. `fs.symlink(target, path, "dir")`
 * is `CreateSymbolicLinkW` with the directory flag, the call upstream's current code makes; it
 * does not open the share, so it works where Go's `os.Symlink` (which stats the target) failed
 * and upstream's PowerShell era fell back to `New-Item -ItemType SymbolicLink`.
 *
 * @example
 * ```ts
 * const smb = new Smb({ shell, links: createNodeSmbLinkHost() });
 * ```
 */
export function createNodeSmbLinkHost(): SmbLinkHost {
  return {
    async readLink(path: string): Promise<LocalEntry> {
      let stats;
      try {
        stats = await lstat(path);
      } catch (error) {
        if (errnoCode(error) === "ENOENT") return { kind: "missing" };
        throw error;
      }
      // Node reports junctions as symbolic links too; both are links to compare.
      if (stats.isSymbolicLink()) return { kind: "link", target: await readlink(path) };
      if (stats.isDirectory())
        return { kind: "directory", empty: (await readdir(path)).length === 0 };
      return { kind: "file" };
    },
    async removeEmptyDirectory(path: string): Promise<void> {
      await rmdir(path);
    },
    async createLink(path: string, target: string, context?: CallContext): Promise<void> {
      await mkdir(dirname(path), { recursive: true });
      // A call that ended while the folders were made creates no link.
      (context ?? noCallContext).throwIfDone();
      await symlink(target, path, "dir");
    },
  };
}
