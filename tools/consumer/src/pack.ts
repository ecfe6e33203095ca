import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./run.js";

export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
}

/** The packages a release publishes: every non-private package under packages/. */
export function publishedPackages(): Manifest[] {
  return readdirSync(join(repoRoot, "packages"))
    .map((dir) => readFileSync(join(repoRoot, "packages", dir, "package.json"), "utf8"))
    .map((text) => JSON.parse(text) as Manifest)
    .filter((manifest) => manifest.private !== true);
}

/** Packs every published package with pnpm (as `changeset publish` does); name → tarball path. */
export async function packAll(destination: string): Promise<Map<string, string>> {
  await run("pnpm", ["-r", "--filter", "./packages/*", "pack", "--pack-destination", destination], {
    cwd: repoRoot,
  });
  const tarballs = new Map<string, string>();
  for (const { name, version } of publishedPackages()) {
    tarballs.set(name, join(destination, `${name.slice(1).replace("/", "-")}-${version}.tgz`));
  }
  return tarballs;
}
