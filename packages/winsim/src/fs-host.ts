import type { Stats } from "node:fs";
import { lstat, readlink, stat, unlink } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { createNodeFilesystemHost, type FilesystemHost } from "@csi-proxy/filesystem";
import type { Simulator } from "./simulator.js";

type OpenDirectory = NonNullable<FilesystemHost["openDirectory"]>;

function errno(code: string, syscall: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
}

/**
 * What Node reports on Windows for this simulated host's folders, where a volume mounted on a
 * folder (a Linux symlink to the volume's backing folder here) is a volume mount point. It
 * follows libuv's Windows code (src/win/fs.c) rather than Linux's answers:
 * - `lstat` of a mount point follows it and says "directory" (fs__stat_impl retries without
 *   FILE_FLAG_OPEN_REPARSE_POINT when fs__readlink_handle refuses a `\??\Volume{guid}\` target);
 * - `readlink` of it fails with EINVAL (ERROR_SYMLINK_NOT_SUPPORTED);
 * - `readdir` with types calls it a link (fs__scandir: FILE_ATTRIBUTE_REPARSE_POINT → DT_LINK),
 *   which is what Linux already answers for the symlink;
 * - `realpath` (Node's JavaScript walk, which follows only what lstat calls a link) stops at it;
 * - `rmdir`/`unlink` of it remove the mount folder as RemoveDirectory removes a junction,
 *   whatever the volume holds; the volume's files stay in its backing folder;
 * - `openDirectory` of it holds the mounted volume's root, as opening the folder on Windows
 *   opens the volume (the reparse point is followed; no FILE_FLAG_OPEN_REPARSE_POINT).
 * Less convenient than Windows on purpose: every volume reports the same `dev` (Windows gives
 * each volume's serial number, which a cloned volume shares with its source), so only what the
 * listing says of the entry can reveal a mount point.
 */
export function windowsFilesystemHost(sim: Simulator): FilesystemHost {
  const volumes = join(sim.dir, "volumes") + sep;

  async function isMountPoint(path: string): Promise<boolean> {
    let own: Stats;
    try {
      own = await lstat(path);
    } catch {
      return false;
    }
    if (!own.isSymbolicLink()) return false;
    const target = await readlink(path);
    const absolute = isAbsolute(target) ? target : resolve(dirname(path), target);
    return (absolute + sep).startsWith(volumes);
  }

  const node = createNodeFilesystemHost();
  const host: FilesystemHost = {
    ...node,
    async lstat(path) {
      return (await isMountPoint(path)) ? stat(path) : lstat(path);
    },
    async readlink(path) {
      if (await isMountPoint(path)) throw errno("EINVAL", "readlink", path);
      return readlink(path);
    },
    async realpath(path) {
      // Node's walk: resolve what lstat calls a link, component by component.
      let resolved: string = sep;
      const pending = resolve(path).split(sep).filter(Boolean);
      for (let hops = 0; pending.length > 0;) {
        const next = join(resolved, pending.shift() as string);
        const stats = await host.lstat(next);
        if (!stats.isSymbolicLink()) {
          resolved = next;
          continue;
        }
        if (++hops > 40) throw errno("ELOOP", "realpath", path);
        const target = await readlink(next);
        const absolute = isAbsolute(target) ? target : resolve(resolved, target);
        pending.unshift(...absolute.split(sep).filter(Boolean));
        resolved = sep;
      }
      return resolved;
    },
    async rmdir(path) {
      if (await isMountPoint(path)) return unlink(path);
      return node.rmdir(path);
    },
    ...(node.openDirectory && {
      async openDirectory(path: string) {
        const open = (at: string) => (node.openDirectory as OpenDirectory)(at);
        if (!(await isMountPoint(path))) return open(path);
        // The volume's backing folder is the simulator's, out of any caller's reach.
        const target = await readlink(path);
        return open(isAbsolute(target) ? target : resolve(dirname(path), target));
      },
    }),
  };
  return host;
}
