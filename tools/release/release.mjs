#!/usr/bin/env node
// `pnpm release`: every check with the PowerShell suites required, then `changeset publish`, and
// only where npm can sign provenance (a GitHub Actions job with `id-token: write`).
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Why this environment must not publish, or undefined when it may. */
export function refusal(env) {
  if (env.GITHUB_ACTIONS === "true" && (env.ACTIONS_ID_TOKEN_REQUEST_URL ?? "") !== "") {
    return undefined;
  }
  return [
    "pnpm release refuses to run here: every package is published with npm provenance, which only",
    'a GitHub Actions job with `id-token: write` can sign. Merge the changesets\' "Version packages"',
    "pull request and let .github/workflows/release.yml publish (see docs/guides/releasing.md).",
    "Nothing was built or published. To run the release checks locally:",
    "  CSI_PROXY_REQUIRE_PWSH=1 pnpm turbo run build test lint typecheck check:package",
  ].join("\n");
}

/** The environment of every step: suites that need PowerShell fail instead of being skipped. */
export function releaseEnv(env) {
  return { ...env, CSI_PROXY_REQUIRE_PWSH: "1", NPM_CONFIG_PROVENANCE: "true" };
}

/** The steps, in order; a failing step stops the release. */
export const steps = [
  ["pnpm", ["exec", "turbo", "run", "build", "test", "lint", "typecheck", "check:package"]],
  ["pnpm", ["exec", "changeset", "publish"]],
];

function main() {
  const reason = refusal(process.env);
  if (reason !== undefined) {
    console.error(reason);
    process.exit(1);
  }
  for (const [command, args] of steps) {
    const result = spawnSync(command, args, {
      cwd: root,
      env: releaseEnv(process.env),
      stdio: "inherit",
      shell: process.platform === "win32",
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
