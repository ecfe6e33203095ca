#!/usr/bin/env node
// `node tools/release/install-from-source.mjs [--prefix <dir>] [--no-build]`: installs the csi-proxy CLI (and
// every other published package) from this checkout, before the first release or between
// releases: builds the packages, packs each one as a release would (`pnpm pack`), and installs
// all the tarballs in one `npm install --global`, so the CLI's @csi-proxy dependencies come from
// the tarballs next to it and third-party ones from the registry.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The names of the packages a release publishes: every non-private package under packages/. */
export function publishedPackageNames(repoRoot = root) {
  return readdirSync(join(repoRoot, "packages"))
    .map((dir) => JSON.parse(readFileSync(join(repoRoot, "packages", dir, "package.json"), "utf8")))
    .filter((manifest) => manifest.private !== true)
    .map((manifest) => manifest.name)
    .sort();
}

/** The commands, in order: build (unless the packages are built already), pack each into `packDir`. */
export function buildAndPackCommands(packDir, build = true) {
  const pack = ["pnpm", ["-r", "--filter", "./packages/*", "pack", "--pack-destination", packDir]];
  if (!build) return [pack];
  const turbo = [
    "exec",
    "turbo",
    "run",
    "build",
    "--filter=./packages/*",
    "--output-logs=errors-only",
  ];
  return [["pnpm", turbo], pack];
}

/** One `npm install --global` of every tarball (optionally under `prefix`). */
export function installCommand(tarballs, prefix) {
  const where = prefix === undefined ? [] : ["--prefix", prefix];
  return ["npm", ["install", "--global", "--no-audit", "--no-fund", ...where, ...tarballs]];
}

/** The tarballs in `packDir`, checked to be one per published package. */
export function tarballsFor(packDir, names = publishedPackageNames()) {
  const tarballs = readdirSync(packDir)
    .filter((f) => f.endsWith(".tgz"))
    .sort();
  const expected = names.map((n) => n.slice(1).replace("/", "-"));
  const missing = expected.filter((stem) => !tarballs.some((t) => t.startsWith(`${stem}-`)));
  if (missing.length > 0 || tarballs.length !== expected.length) {
    throw new Error(`Expected one tarball per package in ${packDir}, got: ${tarballs.join(", ")}`);
  }
  return tarballs.map((t) => join(packDir, t));
}

function run(command, args) {
  console.log(`> ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  if (result.status !== 0)
    throw new Error(`${command} failed with exit code ${result.status ?? "none"}`);
}

function main() {
  const at = process.argv.indexOf("--prefix");
  const prefix = at === -1 ? undefined : process.argv[at + 1];
  const packDir = mkdtempSync(join(tmpdir(), "csi-proxy-pack-"));
  const build = !process.argv.includes("--no-build");
  try {
    for (const [command, args] of buildAndPackCommands(packDir, build)) run(command, args);
    const [npm, args] = installCommand(tarballsFor(packDir), prefix);
    run(npm, args);
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
  console.log("Installed. Try: csi-proxy --help");
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
