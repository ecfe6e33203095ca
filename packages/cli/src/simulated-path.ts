import { join } from "node:path";
import { CsiProxyError } from "@csi-proxy/exec";

/** Where the simulated node's driver staged disk 1's volume, under the node's `root`. */
export function stagingPathUnder(root: string): string {
  return join(root, "var", "lib", "kubelet", "plugins", "demo", "pv-data", "globalmount");
}

// A drive (C:\ or C:/) or a UNC/device path (\\server\share, \\?\...).
const windowsPath = /^(?:[A-Za-z]:[\\/]|\\\\)/;

/**
 * A path for the simulated node: it runs on Linux paths (its mounts are folders under its
 * `root`), so a Windows path is refused before anything runs, saying where its folders are.
 */
export function simulatedPath(path: string, stateDir: string | undefined): string {
  if (!windowsPath.test(path)) return path;
  const where =
    stateDir === undefined
      ? "its folders are under the root/ folder of its state folder (keep one with --state-dir DIR: " +
        `the staged volume is then mounted at ${stagingPathUnder(join("DIR", "root"))})`
      : `its folders are under ${join(stateDir, "root")} (the staged volume is mounted at ` +
        `${stagingPathUnder(join(stateDir, "root"))})`;
  throw new CsiProxyError(
    `${path} is a Windows path, but the simulated node uses Linux paths: ${where}.`,
    { code: "INVALID_ARGUMENT" },
  );
}
