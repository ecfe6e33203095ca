#!/usr/bin/env node
// The unit tests that make sense on Windows: every packages/*/test file that uses fakes only.
// Files that load the simulator (winsim) or need the provisioned pwsh run on Linux only: the
// simulator models Windows with native Linux paths. Run from the repository root.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const needsSimulator = /@csi-proxy\/winsim|describeWithPwsh|pwshPath/;

/** Per package folder, its test files that need neither the simulator nor the provisioned pwsh. */
export function windowsUnitTests(packagesDir) {
  const chosen = [];
  for (const name of readdirSync(packagesDir).sort()) {
    // The simulator itself (packages/winsim) is a Linux tool: none of its tests belong here.
    if (name === "winsim") continue;
    const testDir = join(packagesDir, name, "test");
    if (!existsSync(testDir)) continue;
    const files = readdirSync(testDir)
      .filter(
        (f) =>
          f.endsWith(".test.ts") && !needsSimulator.test(readFileSync(join(testDir, f), "utf8")),
      )
      .sort();
    if (files.length > 0)
      chosen.push({ dir: join(packagesDir, name), files: files.map((f) => `test/${f}`) });
  }
  return chosen;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packagesDir = fileURLToPath(new URL("../../packages/", import.meta.url));
  let failed = 0;
  for (const { dir, files } of windowsUnitTests(packagesDir)) {
    console.log(`\n== ${dir}: ${files.length} test files`);
    const run = spawnSync("npx", ["vitest", "run", ...files], {
      cwd: dir,
      stdio: "inherit",
      shell: process.platform === "win32",
    });
    if (run.status !== 0) failed++;
  }
  process.exitCode = failed === 0 ? 0 : 1;
}
