import { readFileSync } from "node:fs";

// Read, not inlined: `changeset version` bumps package.json after the build, and the tarball, the
// workspace and the Windows executable (which extracts package.json beside it) all keep
// package.json one folder above dist/.
function packageVersion(): string {
  const manifest = JSON.parse(
    readFileSync(new URL("../package.json", import.meta.url), "utf8"),
  ) as { version?: unknown };
  if (typeof manifest.version !== "string") throw new Error("package.json has no version");
  return manifest.version;
}

/** This package's version (`package.json`), as `--version` prints it and the ready line gives it. */
export const serverVersion: string = packageVersion();
