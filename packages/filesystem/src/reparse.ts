/**
 * A reparse point as the host's file system records it: its tag and, for the kinds that name
 * another place, the substitute name. `FSCTL_GET_REPARSE_POINT` on Windows (see
 * {@link createWin32ReparseReader}); a simulated host reports what Windows would.
 */
export interface ReparsePoint {
  /**
   * The reparse tag (`IO_REPARSE_TAG_*`, winnt.h). 0 when the host saw a reparse point but could
   * not read its data.
   */
  readonly tag: number;
  /**
   * For a symbolic link or a junction: where it leads. A drive path, a UNC path or a relative
   * path as Node's `readlink` gives it (libuv's fs__readlink_handle strips `\??\` before a drive
   * and turns `\??\UNC\` into `\\`); anything else as stored (`\??\Volume{guid}\`).
   */
  readonly target?: string;
}

/** winnt.h: the tags this package tells apart. */
export const reparseTags = {
  /** A junction or a volume mount point (mountvol, Add-PartitionAccessPath). */
  MOUNT_POINT: 0xa0000003,
  /** A symbolic link (mklink, CreateSymbolicLinkW). */
  SYMLINK: 0xa000000c,
  /** An app execution alias (`%LOCALAPPDATA%\Microsoft\WindowsApps`), which libuv reads as a link. */
  APPEXECLINK: 0x8000001b,
} as const;

/**
 * winnt.h `IsReparseTagNameSurrogate`: the entry stands for another named entity (a link, a
 * junction, a mounted folder). Tags without it (deduplication, WOF compression, cloud files) keep
 * the entry what it is: its data is its own, only stored elsewhere.
 */
const nameSurrogate = 0x20000000;

/**
 * What one name on a path is, from its reparse data rather than from what `lstat` says:
 * - `plain`: no reparse point, or one that names no other place;
 * - `link`: a symbolic link or junction to a path on this node (`target` as `readlink` gives it);
 * - `share`: a link to an SMB share path (`\\server\share\...`), such as an SMB mapping's link;
 * - `volume`: a volume mount point (a junction to `\??\Volume{guid}\`), or a link to a volume's
 *   GUID path; `volumeId` is `\\?\Volume{guid}\`, `path` the names below the volume's root;
 * - `opaque`: anything else that leads elsewhere (a junction to `\??\GLOBALROOT\Device\...`, a
 *   name surrogate of another tag, an app execution alias, unreadable reparse data): never
 *   followed by a confined walk.
 */
export type PathEntry =
  | { readonly kind: "plain" }
  | { readonly kind: "link"; readonly target: string }
  | { readonly kind: "share"; readonly remotePath: string }
  | { readonly kind: "volume"; readonly volumeId: string; readonly path: readonly string[] }
  | { readonly kind: "opaque"; readonly tag: number };

const plain: PathEntry = { kind: "plain" };
const volumeName = /^Volume\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}$/i;

/** Where a stored target leads: an NT path (`\??\...`, `\\?\...`) read by its namespace. */
function classifyTarget(target: string, tag: number): PathEntry {
  const nt = /^\\(?:\?\?|\\\?)\\(.*)$/s.exec(target);
  if (nt === null) {
    // `\\.\` is the device namespace: a link there leads to no file system path.
    if (target.startsWith("\\\\.\\")) return { kind: "opaque", tag };
    if (/^\\\\[^\\]+\\[^\\]+/.test(target)) {
      return { kind: "share", remotePath: target.replace(/\\+$/, "") };
    }
    return { kind: "link", target };
  }
  const rest = nt[1] ?? "";
  if (/^[a-z]:(\\|$)/i.test(rest)) return { kind: "link", target: rest };
  if (/^UNC\\[^\\]+\\[^\\]+/i.test(rest)) {
    return { kind: "share", remotePath: `\\\\${rest.slice(4)}`.replace(/\\+$/, "") };
  }
  const [root = "", ...names] = rest.split("\\");
  if (volumeName.test(root)) {
    return {
      kind: "volume",
      volumeId: `\\\\?\\${root}\\`,
      path: names.filter((name) => name !== ""),
    };
  }
  // \??\GLOBALROOT\Device\HarddiskVolumeN\, \??\pipe\..., any other object: not a path we follow.
  return { kind: "opaque", tag };
}

/** What a reparse point is (see {@link PathEntry}); `undefined` data: no reparse point. */
export function classifyReparsePoint(data: ReparsePoint | undefined): PathEntry {
  if (data === undefined) return plain;
  const { tag, target } = data;
  if (tag === reparseTags.SYMLINK || tag === reparseTags.MOUNT_POINT) {
    return target === undefined || target === ""
      ? { kind: "opaque", tag }
      : classifyTarget(target, tag);
  }
  if (tag === 0 || tag === reparseTags.APPEXECLINK || (tag & nameSurrogate) !== 0) {
    return { kind: "opaque", tag };
  }
  return plain;
}
