import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Where JUnit, the call log and diagnostics go: `CSI_CONFORMANCE_RESULTS`, else `results/` here. */
export function resultsDir(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.CSI_CONFORMANCE_RESULTS;
  return chosen === undefined || chosen === "" ? join(packageDir, "results") : resolve(chosen);
}

/** Writes `value` as pretty JSON into the results folder and returns the file's path. */
export function writeResult(name: string, value: unknown): string {
  const dir = resultsDir();
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  const json = JSON.stringify(
    value,
    (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v),
    2,
  );
  writeFileSync(path, `${json}\n`);
  return path;
}
