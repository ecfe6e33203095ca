#!/usr/bin/env node
// The unit tests that make sense on Windows: every packages/*/test file that uses fakes only and
// does not assume Linux paths. Files that load the simulator (winsim) or need the provisioned pwsh
// run on Linux only: the simulator models Windows with native Linux paths. Run from the
// repository root; prints what it leaves out and why.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const needsSimulator = /@csi-proxy\/winsim|describeWithPwsh|pwshPath/;
/** The real OS temp dir: `/tmp/...` on Linux, `C:\Users\...\Temp\...` on Windows. */
const usesOsTempDir = /\btmpdir\b|\bmkdtemp(Sync)?\b/;
const mentionsPosix = /\bposix\b/;

/**
 * The comment a test file carries to say its posix paths are strings only (they never reach the
 * real file system), so it also runs on Windows. It cannot admit a file that uses the OS temp dir.
 */
export const platformNeutralMarker = "windows-unit-tests: platform-neutral";

/**
 * Files reviewed as platform-neutral that cannot carry the marker yet (their packages are edited
 * elsewhere): posix rules applied to literal strings, no real file system. Each entry is checked
 * to exist by test/workflows.test.ts; the temp-dir rule still applies to them.
 */
export const reviewedPlatformNeutral = {
  "exec/test/paths.test.ts": "normalizePath/isWithin on literal strings",
  "smb/test/local-path.test.ts": "normalizeLocalPath on literal strings; platform default",
  "smb/test/smb.test.ts": "pathStyle posix with a fake link host",
  "volume/test/host.test.ts": "pathStyle posix with fake shells",
  "volume/test/locks.test.ts": "pathStyle posix with a fake host",
  "volume/test/validate.test.ts": "validateTargetPath/pathKey on literal strings",
  "volume/test/volume.test.ts": "pathStyle posix with a fake host; platform default",
};

/**
 * Why one test file must not run on Windows, or undefined when it may. `name` is
 * `<package>/test/<file>`. A file that drives posix paths and touches the OS temp dir is never
 * chosen (on Windows that dir is `C:\...`, not an absolute posix path); any other mention of
 * posix or the temp dir needs the marker or a reviewed entry, so a new such test stays out until
 * someone says it is safe.
 */
export function linuxOnlyReason(name, text) {
  if (needsSimulator.test(text)) return "loads the simulator or the provisioned pwsh";
  const posix = mentionsPosix.test(text);
  const tempDir = usesOsTempDir.test(text);
  if (posix && tempDir) return "drives posix paths on the OS temp dir";
  const declared = text.includes(platformNeutralMarker) || name in reviewedPlatformNeutral;
  if ((posix || tempDir) && !declared) {
    return `uses ${posix ? "posix paths" : "the OS temp dir"} without "${platformNeutralMarker}"`;
  }
  return undefined;
}

/** Per package folder, its test files that may run on Windows, and the others with the reason. */
export function windowsUnitTests(packagesDir) {
  const chosen = [];
  for (const name of readdirSync(packagesDir).sort()) {
    // The simulator itself (packages/winsim) is a Linux tool: none of its tests belong here.
    if (name === "winsim") continue;
    const testDir = join(packagesDir, name, "test");
    if (!existsSync(testDir)) continue;
    const files = [];
    const skipped = [];
    for (const f of readdirSync(testDir).sort()) {
      if (!f.endsWith(".test.ts")) continue;
      const reason = linuxOnlyReason(`${name}/test/${f}`, readFileSync(join(testDir, f), "utf8"));
      if (reason === undefined) files.push(`test/${f}`);
      else skipped.push({ file: `test/${f}`, reason });
    }
    if (files.length > 0) chosen.push({ dir: join(packagesDir, name), files, skipped });
  }
  return chosen;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packagesDir = fileURLToPath(new URL("../../packages/", import.meta.url));
  let failed = 0;
  for (const { dir, files, skipped } of windowsUnitTests(packagesDir)) {
    console.log(`\n== ${dir}: ${files.length} test files`);
    for (const s of skipped) console.log(`   Linux only: ${s.file} (${s.reason})`);
    const run = spawnSync("npx", ["vitest", "run", ...files], {
      cwd: dir,
      stdio: "inherit",
      shell: process.platform === "win32",
    });
    if (run.status !== 0) failed++;
  }
  process.exitCode = failed === 0 ? 0 : 1;
}
