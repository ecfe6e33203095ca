import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { run } from "./run.js";

export type Manager = "npm" | "pnpm";
/** The TypeScript settings the READMEs promise; each is checked without skipLibCheck or `types`. */
export type ModuleMode = "nodenext" | "bundler";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

const compilerOptions: Record<ModuleMode, Record<string, unknown>> = {
  nodenext: { module: "nodenext", outDir: "out" },
  bundler: { module: "esnext", moduleResolution: "bundler", noEmit: true },
};

export interface ProjectSpec {
  readonly dir: string;
  readonly manager: Manager;
  /** Every packed tarball: all of them are pinned, so no @csi-proxy/* ever comes from a registry. */
  readonly tarballs: ReadonlyMap<string, string>;
  /** The @csi-proxy packages the driver installs, as its README tells it to. */
  readonly install: readonly string[];
  /** Third-party dependencies, e.g. @types/node. */
  readonly extra?: Readonly<Record<string, string>>;
  /** The driver's source, copied to consumer.ts. */
  readonly fixture: string;
  /** One npm cache for every run, so installs after the first are offline and quick. */
  readonly npmCache: string;
}

/** Writes a fresh project that depends on the tarballs, and installs it with npm or pnpm. */
export async function createProject(spec: ProjectSpec): Promise<void> {
  mkdirSync(spec.dir, { recursive: true });
  const pins = Object.fromEntries([...spec.tarballs].map(([name, path]) => [name, `file:${path}`]));
  const dependencies = {
    ...Object.fromEntries(spec.install.map((name) => [name, pins[name]])),
    ...spec.extra,
  };
  const manifest = { name: "consumer", private: true, type: "module", dependencies };
  const pinned = spec.manager === "npm" ? { overrides: pins } : { pnpm: { overrides: pins } };
  writeFileSync(
    join(spec.dir, "package.json"),
    JSON.stringify({ ...manifest, ...pinned }, null, 2),
  );
  copyFileSync(spec.fixture, join(spec.dir, "consumer.ts"));
  for (const mode of Object.keys(compilerOptions) as ModuleMode[]) {
    // skipDefaultLibCheck skips only TypeScript's own lib.*.d.ts (the slowest part on two cores);
    // every declaration we ship, and @types/node, is still checked: skipLibCheck stays off.
    const options = {
      target: "es2022",
      strict: true,
      skipDefaultLibCheck: true,
      ...compilerOptions[mode],
    };
    const config = { compilerOptions: options, files: ["consumer.ts"] };
    writeFileSync(join(spec.dir, `tsconfig.${mode}.json`), JSON.stringify(config, null, 2));
  }
  const args =
    spec.manager === "npm"
      ? ["install", "--no-audit", "--no-fund", "--prefer-offline", "--cache", spec.npmCache]
      : ["install", "--no-frozen-lockfile", "--prefer-offline"];
  await run(spec.manager, args, { cwd: spec.dir });
}

/** Type-checks the driver with the repository's TypeScript under one module setting. */
export async function typecheck(dir: string, mode: ModuleMode): Promise<void> {
  await run(process.execPath, [tsc, "-p", `tsconfig.${mode}.json`], { cwd: dir });
}

/** Runs the driver (as the nodenext check emits it) with node; resolves its output. */
export async function runDriver(dir: string, env: Record<string, string> = {}): Promise<string> {
  if (!existsSync(join(dir, "out", "consumer.js"))) await typecheck(dir, "nodenext");
  return run(process.execPath, ["out/consumer.js"], { cwd: dir, env });
}

/** Every @csi-proxy package present anywhere in the install, nested or in pnpm's store dir. */
export function installedCsiProxyPackages(dir: string): string[] {
  const found = new Set<string>();
  const walk = (modules: string): void => {
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (entry.name === ".pnpm") {
        for (const stored of readdirSync(join(modules, ".pnpm"))) {
          const match = /^@csi-proxy\+([^@]+)@/.exec(stored);
          if (match !== null) found.add(`@csi-proxy/${match[1] ?? ""}`);
        }
      } else if (entry.name === "@csi-proxy") {
        for (const name of readdirSync(join(modules, entry.name))) found.add(`@csi-proxy/${name}`);
      }
      if (entry.isDirectory() && !entry.name.startsWith(".")) {
        const scoped = entry.name.startsWith("@")
          ? readdirSync(join(modules, entry.name)).map((name) => join(entry.name, name))
          : [entry.name];
        for (const pkg of scoped) {
          const nested = join(modules, pkg, "node_modules");
          if (safeIsDir(nested)) walk(nested);
        }
      }
    }
  };
  walk(join(dir, "node_modules"));
  return [...found].sort();
}

function safeIsDir(path: string): boolean {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
}
