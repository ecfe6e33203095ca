import type { Stats } from "node:fs";
import { lstat, readlink, stat, symlink, unlink } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import {
  createNodeFilesystemHost,
  reparseTags,
  type FilesystemHost,
  type ReparsePoint,
} from "@csi-proxy/filesystem";
import type { Simulator } from "./simulator.js";
import { localToUnc, uncToLocal } from "./smb-host.js";

type OpenDirectory = NonNullable<FilesystemHost["openDirectory"]>;

function errno(code: string, syscall: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
}

/**
 * What a Linux symlink on the simulated host stands for on Windows. The target's text decides:
 * - exactly a volume's folder (`<dir>/volumes/Volume{guid}`, as Add-PartitionAccessPath makes
 *   it): a volume mount point, IO_REPARSE_TAG_MOUNT_POINT to `\??\Volume{guid}\`;
 * - a device folder (`<dir>/devices/HarddiskVolumeN`, see `Simulator.deviceDir`): a junction to
 *   `\??\GLOBALROOT\Device\HarddiskVolumeN\`;
 * - inside a volume's folder with a trailing `/` or names below it: a symbolic link to the
 *   volume's GUID path (`mklink /D x \\?\Volume{guid}\`), IO_REPARSE_TAG_SYMLINK;
 * - a share's folder (`<dir>/shares/<server>/<share>`): a symbolic link to `\??\UNC\...`, as an
 *   SMB mapping's link is;
 * - anything else: a symbolic link (or a junction to a drive path: libuv reads both the same).
 */
type Shape =
  | { readonly kind: "mount"; readonly target: string }
  | { readonly kind: "device"; readonly target: string }
  | { readonly kind: "symlink"; readonly target: string; readonly ntTarget: string };

/**
 * What Node reports on Windows for this simulated host's folders, following libuv's Windows code
 * (src/win/fs.c) rather than Linux's answers:
 * - `reparsePoint` gives each link's tag and substitute name as FSCTL_GET_REPARSE_POINT would
 *   (see {@link Shape});
 * - `lstat` of a junction to a volume or a device follows it and says "directory"
 *   (fs__stat_impl retries without FILE_FLAG_OPEN_REPARSE_POINT when fs__readlink_handle
 *   refuses a target that is not `\??\<drive>:\`); a symbolic link to a volume's GUID path is a
 *   link (fs__readlink_handle reads every IO_REPARSE_TAG_SYMLINK);
 * - `readlink` of such a junction fails with EINVAL (ERROR_SYMLINK_NOT_SUPPORTED); of a symbolic
 *   link to a volume it gives `\??\Volume{guid}\...` unchanged, and of a link to a share
 *   `\\server\share\...` (libuv strips `\??\` only before a drive, and turns `\??\UNC\` into `\\`);
 * - `readdir` with types calls every reparse point a link (fs__scandir), which is what Linux
 *   already answers for a symlink;
 * - `realpath` (Node's JavaScript walk, which follows only what lstat calls a link) stops at a
 *   junction to a volume;
 * - `rmdir`/`unlink` of a junction remove the mount folder as RemoveDirectory removes a junction,
 *   whatever the volume holds; the volume's files stay in its backing folder;
 * - `openDirectory` of a junction or link to a volume holds the mounted volume's root, as
 *   opening the folder on Windows opens the volume (the reparse point is followed);
 * - `symlink` to a volume's GUID path or a UNC path makes the link Windows would make.
 * Less convenient than Windows on purpose: every volume reports the same `dev` (Windows gives
 * each volume's serial number, which a cloned volume shares with its source), so only what the
 * reparse data or the listing says of the entry can reveal a mount point.
 */
export function windowsFilesystemHost(sim: Simulator): FilesystemHost {
  const volumes = join(sim.dir, "volumes") + sep;
  const devices = join(sim.dir, "devices") + sep;

  async function shape(path: string): Promise<Shape | undefined> {
    let own: Stats;
    try {
      own = await lstat(path);
    } catch {
      return undefined;
    }
    if (!own.isSymbolicLink()) return undefined;
    const target = await readlink(path);
    const absolute = isAbsolute(target) ? target : resolve(dirname(path), target);
    const clean = resolve(absolute);
    if (clean.startsWith(devices)) {
      const device = clean.slice(devices.length).split(sep)[0] ?? "";
      return { kind: "device", target: `\\??\\GLOBALROOT\\Device\\${device}\\` };
    }
    if (clean.startsWith(volumes)) {
      const [volume = "", ...below] = clean.slice(volumes.length).split(sep);
      const nt = `\\??\\${volume}\\${below.join("\\")}`;
      if (below.length === 0 && !target.endsWith("/")) return { kind: "mount", target: nt };
      return { kind: "symlink", target, ntTarget: nt };
    }
    const unc = localToUnc(sim, clean);
    if (unc !== undefined) return { kind: "symlink", target, ntTarget: unc };
    return { kind: "symlink", target, ntTarget: target };
  }

  const followed = async (path: string) => {
    const found = await shape(path);
    return found !== undefined && found.kind !== "symlink";
  };

  const node = createNodeFilesystemHost();
  const host: FilesystemHost = {
    ...node,
    async lstat(path) {
      return (await followed(path)) ? stat(path) : lstat(path);
    },
    async readlink(path) {
      const found = await shape(path);
      if (found === undefined) return readlink(path);
      if (found.kind !== "symlink") throw errno("EINVAL", "readlink", path);
      return found.ntTarget;
    },
    async reparsePoint(path): Promise<ReparsePoint | undefined> {
      // ENOENT as Windows' CreateFileW gives it; a plain entry has no reparse point.
      await lstat(path);
      const found = await shape(path);
      if (found === undefined) return undefined;
      if (found.kind === "symlink") return { tag: reparseTags.SYMLINK, target: found.ntTarget };
      return { tag: reparseTags.MOUNT_POINT, target: found.target };
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
      if (await followed(path)) return unlink(path);
      return node.rmdir(path);
    },
    async symlink(target, path, type) {
      const volume = /^\\\\\?\\(Volume\{[0-9a-f-]+\})\\(.*)$/i.exec(target);
      if (volume !== null) {
        // The trailing `/` marks a symbolic link to the volume, not a mount point (see Shape).
        const below = (volume[2] ?? "").split("\\").filter((s) => s !== "");
        return symlink(`${join(volumes, volume[1] ?? "", ...below)}/`, path, type);
      }
      if (/^\\\\[^\\?.]/.test(target)) return symlink(uncToLocal(sim, target), path, type);
      return symlink(target, path, type);
    },
    ...(node.openDirectory && {
      async openDirectory(path: string) {
        const open = (at: string) => (node.openDirectory as OpenDirectory)(at);
        const found = await shape(path);
        const intoVolume =
          found?.kind === "mount" ||
          (found?.kind === "symlink" && found.ntTarget.startsWith("\\??\\Volume"));
        if (!intoVolume) {
          return open(path);
        }
        // The volume's backing folder is the simulator's, out of any caller's reach.
        const target = await readlink(path);
        return open(resolve(dirname(path), target));
      },
    }),
  };
  return host;
}
