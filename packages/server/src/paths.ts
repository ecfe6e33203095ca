import { isAbsolute, join, relative, sep } from "node:path";
import { invalidArgument, isWithin, normalizePath } from "@csi-proxy/exec";

/**
 * How a request's Windows path reaches the host. On Windows it is the path itself; on the
 * simulated node (`--simulate`, on Linux) drive C: is the simulator's root folder.
 */
export interface PathMapping {
  /** The host path of a normalised Windows path (`C:\...`). */
  toHost(windowsPath: string): string;
  /** The Windows path of a host path, or undefined when it lies outside what requests can name. */
  fromHost(hostPath: string): string | undefined;
  /** The SMB remote path (`\\server\share\...`) a link's host target stands for, if it is one. */
  remoteOf(hostPath: string): string | undefined;
}

// `\\server\share`, not a `\\?\` or `\\.\` device path (libuv's readlink gives an SMB
// mapping's link target back as `\\server\share\...`, without `\??\UNC\`).
const uncPath = /^\\\\(?![?.]\\)[^\\]+\\[^\\]+/;

/** Windows: paths reach the host as they are. */
export const windowsPaths: PathMapping = {
  toHost: (path) => path,
  fromHost: (path) => (uncPath.test(path) ? undefined : path),
  remoteOf: (path) => (uncPath.test(path) ? path.replace(/\\+$/, "") : undefined),
};

/**
 * The simulated node: `C:\var\lib\kubelet\x` is `<root>/var/lib/kubelet/x`. Only drive C:
 * exists there; `remoteOf` names the share a simulated share folder stands for. Names keep their case, so the simulated node is case-sensitive where Windows is
 * not: a client that changes a path's case between calls fails here, not on Windows.
 */
export function simulatedPaths(
  root: string,
  remoteOf: (hostPath: string) => string | undefined = () => undefined,
): PathMapping {
  return {
    remoteOf: (hostPath) => remoteOf(hostPath)?.replace(/\\+$/, ""),
    toHost(windowsPath) {
      if (!/^C:\\/i.test(windowsPath)) {
        throw invalidArgument(`The simulated node has only drive C:, not ${windowsPath}`);
      }
      return join(root, ...windowsPath.slice(3).split("\\"));
    },
    fromHost(hostPath) {
      const rest = relative(root, hostPath);
      if (rest.startsWith("..") || isAbsolute(rest)) return undefined;
      return `C:\\${rest
        .split(sep)
        .filter((s) => s !== "")
        .join("\\")}`;
    },
  };
}

/**
 * Checks a request's Windows path and returns it normalised (`normalizePath`'s rules). A path
 * that is not absolute fails with upstream's text, `not an absolute Windows path: <p>`, which
 * clients match on (democratic-csi treats it as "does not exist" in PathExists and IsSymlink).
 */
export function windowsPath(value: unknown): string {
  if (typeof value !== "string" || !/^([a-zA-Z]:\\|\\)/.test(value)) {
    throw invalidArgument(`not an absolute Windows path: ${String(value)}`);
  }
  const path = normalizePath(value, { style: "windows" });
  // Windows drops a name's trailing dots and spaces, so such a path would not name what it says.
  if (
    path
      .slice(3)
      .split("\\")
      .some((segment) => /[. ]$/.test(segment))
  ) {
    throw invalidArgument(`A name in the path ends with a dot or a space: ${value}`);
  }
  return path;
}

/** Whether a normalised Windows path lies in one of the roots (separator boundary, NTFS case folding). */
export function withinRoots(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => isWithin(path, root, "windows"));
}
