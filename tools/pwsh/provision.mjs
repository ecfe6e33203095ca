#!/usr/bin/env node
// Installs PowerShell 7 as a .NET tool into <repo>/.tools/pwsh, so tests, the demo and CI run
// real PowerShell without relying on anything installed by hand. Safe to call repeatedly and
// from several processes at once.
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const pwshVersion = "7.6.9";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const toolDir = join(repoRoot, ".tools", "pwsh");
const lockDir = join(repoRoot, ".tools", "pwsh.lock");
const stampFile = join(toolDir, "VERSION");

const shimPath = join(toolDir, process.platform === "win32" ? "pwsh.exe" : "pwsh");
const launcherPath = join(toolDir, "bin", "pwsh");

/**
 * On POSIX the path is a launcher that execs `dotnet pwsh.dll`: the tool's own shim starts pwsh
 * as a second process, which costs ~150 ms per start and hides the real PowerShell pid.
 */
export function provisionedPwshPath() {
  return process.platform === "win32" ? shimPath : launcherPath;
}

function findOnPath(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return realpathSync(candidate);
  }
  return undefined;
}

function writeLauncher() {
  const toolsRoot = join(
    toolDir,
    ".store",
    "powershell",
    pwshVersion,
    "powershell",
    pwshVersion,
    "tools",
  );
  const framework = readdirSync(toolsRoot).find((entry) =>
    existsSync(join(toolsRoot, entry, "any", "unix", "pwsh.dll")),
  );
  const dotnet = findOnPath("dotnet");
  if (framework === undefined || dotnet === undefined)
    throw new Error(`cannot find pwsh.dll under ${toolsRoot} or dotnet on PATH`);
  const dll = join(toolsRoot, framework, "any", "unix", "pwsh.dll");
  mkdirSync(dirname(launcherPath), { recursive: true });
  writeFileSync(launcherPath, `#!/bin/sh\nexec '${dotnet}' '${dll}' "$@"\n`);
  chmodSync(launcherPath, 0o755);
}

function works(path) {
  const probe = spawnSync(
    path,
    [
      "-NoLogo",
      "-NoProfile",
      "-NonInteractive",
      "-Command",
      "$PSVersionTable.PSVersion.ToString()",
    ],
    {
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  return probe.status === 0 && probe.stdout.trim() === pwshVersion;
}

function ready() {
  return (
    existsSync(stampFile) &&
    readFileSync(stampFile, "utf8").trim() === pwshVersion &&
    existsSync(provisionedPwshPath())
  );
}

function hasDotnet() {
  return spawnSync("dotnet", ["--version"], { encoding: "utf8" }).status === 0;
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function withLock(fn) {
  mkdirSync(dirname(lockDir), { recursive: true });
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      // A lock older than ten minutes belongs to a process that died mid-install.
      if (Date.now() - statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs > 10 * 60_000)
        rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir}`);
      sleep(500);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

export function provisionPwsh({ quiet = false } = {}) {
  const say = (line) => quiet || console.log(line);
  if (ready()) return provisionedPwshPath();
  if (!hasDotnet()) {
    console.log(
      `pwsh ${pwshVersion} is missing and cannot be provisioned: install the .NET SDK (8 or newer, e.g. 'apt-get install dotnet-sdk-8.0'), then run 'pnpm setup:pwsh'.`,
    );
    return undefined;
  }
  return withLock(() => {
    if (ready()) return provisionedPwshPath();
    say(`Provisioning pwsh ${pwshVersion} into ${toolDir} (dotnet tool install)...`);
    rmSync(toolDir, { recursive: true, force: true });
    execFileSync(
      "dotnet",
      ["tool", "install", "--tool-path", toolDir, "PowerShell", "--version", pwshVersion],
      {
        stdio: quiet ? "ignore" : ["ignore", "inherit", "inherit"],
        env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: "1", DOTNET_NOLOGO: "1" },
      },
    );
    if (process.platform !== "win32") writeLauncher();
    if (!works(provisionedPwshPath()))
      throw new Error(`pwsh at ${provisionedPwshPath()} did not report version ${pwshVersion}`);
    writeFileSync(stampFile, `${pwshVersion}\n`);
    say(`pwsh ${pwshVersion} ready at ${provisionedPwshPath()}`);
    return provisionedPwshPath();
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const path = provisionPwsh();
  if (path) console.log(`pwsh ${pwshVersion}: ${path}`);
  else if (process.env.CSI_PROXY_REQUIRE_PWSH === "1") process.exit(1);
}
