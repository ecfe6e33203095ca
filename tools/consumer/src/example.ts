import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { repoRoot } from "./pack.js";
import { run } from "./run.js";

/** The worked example a driver author can copy: a node plugin's stage/unstage, tested on winsim. */
export const driverNodeExample = join(repoRoot, "examples", "driver-node");

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

interface ExampleManifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  [key: string]: unknown;
}

/** The example's manifest with every @csi-proxy range replaced by the packed tarball. */
function pinned(manifest: ExampleManifest, tarballs: ReadonlyMap<string, string>): ExampleManifest {
  const pin = (deps: Record<string, string> = {}) =>
    Object.fromEntries(
      Object.entries(deps).map(([name, range]) => {
        if (!name.startsWith("@csi-proxy/")) return [name, range];
        const tarball = tarballs.get(name);
        if (tarball === undefined)
          throw new Error(`the example needs ${name}, which is not packed`);
        return [name, `file:${tarball}`];
      }),
    );
  const overrides = Object.fromEntries([...tarballs].map(([name, path]) => [name, `file:${path}`]));
  return {
    ...manifest,
    dependencies: pin(manifest.dependencies),
    devDependencies: pin(manifest.devDependencies),
    // So a group's own dependency on exec resolves to the tarball too, never to a registry.
    overrides,
  };
}

/**
 * Copies the example (sources, tests, configs; not node_modules) into `dir` and installs it with
 * npm as its package.json says, the @csi-proxy packages from the tarballs.
 */
export async function createExampleProject(spec: {
  readonly dir: string;
  readonly example: string;
  readonly tarballs: ReadonlyMap<string, string>;
  readonly npmCache: string;
}): Promise<void> {
  cpSync(spec.example, spec.dir, {
    recursive: true,
    filter: (source) => basename(source) !== "node_modules",
  });
  const manifest = JSON.parse(
    readFileSync(join(spec.example, "package.json"), "utf8"),
  ) as ExampleManifest;
  writeFileSync(
    join(spec.dir, "package.json"),
    JSON.stringify(pinned(manifest, spec.tarballs), null, 2),
  );
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", "--cache", spec.npmCache],
    { cwd: spec.dir },
  );
}

/** Type-checks the example with its own tsconfig (strict, nodenext, no skipLibCheck). */
export async function typecheckExample(dir: string): Promise<void> {
  await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir });
}

/** What vitest's JSON reporter says of a run. */
export interface VitestSummary {
  readonly numTotalTests: number;
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly numPendingTests: number;
  readonly success: boolean;
}

/** Runs the example's tests with its own installed vitest (`npx vitest run`); the JSON summary. */
export async function runExampleTests(
  dir: string,
  env: Record<string, string>,
): Promise<VitestSummary> {
  const output = join(dir, "vitest-results.json");
  await run("npx", ["vitest", "run", "--reporter=json", `--outputFile=${output}`], {
    cwd: dir,
    env,
  });
  return JSON.parse(readFileSync(output, "utf8")) as VitestSummary;
}
