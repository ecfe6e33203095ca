// Installs PowerShell 7 as a .NET tool into a folder of the caller's choosing. Plain JavaScript
// with no dependencies: the repository's tools/pwsh/provision.mjs imports it by relative path
// before anything is installed or built, and findPwsh (src/find-pwsh.ts) uses it from the package.
// Safe to call repeatedly and from several processes at once (a lock folder beside the tool dir).
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
import { delimiter, dirname, join } from "node:path";

export const pwshVersion = "7.6.9";

const isWindows = process.platform === "win32";

/**
 * Where a tool dir's pwsh is. On POSIX it is a launcher that execs `dotnet pwsh.dll`: the tool's
 * own shim starts pwsh as a second process, which costs ~150 ms per start and hides the real pid.
 */
export function pwshPathIn(toolDir) {
  return isWindows ? join(toolDir, "pwsh.exe") : join(toolDir, "bin", "pwsh");
}

/** The first `name` on PATH (with Windows' .exe), resolved through links. */
export function findOnPath(name, path = process.env.PATH) {
  const names = isWindows && !name.toLowerCase().endsWith(".exe") ? [`${name}.exe`, name] : [name];
  for (const dir of (path ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const file of names) {
      const candidate = join(dir, file);
      if (existsSync(candidate)) return realpathSync(candidate);
    }
  }
  return undefined;
}

/** The PowerShell version `path` reports, or undefined when it does not start. */
export function pwshVersionOf(path) {
  const probe = spawnSync(
    path,
    [
      "-NoLogo",
      "-NoProfile",
      "-NonInteractive",
      "-Command",
      "$PSVersionTable.PSVersion.ToString()",
    ],
    // Its own process group on POSIX: a Ctrl-C at the terminal (sent to the whole foreground
    // group) must not kill the probe and pass for "pwsh does not run"; the caller handles it.
    // Multi-core JIT off, as @csi-proxy/exec starts pwsh (its `dotnetRuntimeDefaults`): a start-up
    // profile corrupted by pwsh processes started together crashes every later pwsh at start.
    {
      encoding: "utf8",
      timeout: 60_000,
      detached: !isWindows,
      env: { ...process.env, DOTNET_MultiCoreJitMinNumCpus: "FFFF" },
    },
  );
  // Killed from outside (a Ctrl-C that reached it before it left the terminal's group): the run
  // was interrupted, which says nothing of whether pwsh runs.
  if (probe.signal === "SIGINT" || probe.signal === "SIGTERM" || probe.signal === "SIGHUP") {
    throw Object.assign(
      new Error(`The PowerShell probe of ${path} was interrupted (${probe.signal}).`),
      {
        code: "ABORTED",
        signal: probe.signal,
      },
    );
  }
  return probe.status === 0 ? probe.stdout.trim() : undefined;
}

/** Whether `dotnet --version` runs (the SDK is what `dotnet tool install` needs). */
export function hasDotnet() {
  return spawnSync("dotnet", ["--version"], { encoding: "utf8" }).status === 0;
}

/** Whether `toolDir` already holds this version (its VERSION stamp, written last, says so). */
export function isProvisioned(toolDir, version = pwshVersion) {
  const stamp = join(toolDir, "VERSION");
  return (
    existsSync(stamp) &&
    readFileSync(stamp, "utf8").trim() === version &&
    existsSync(pwshPathIn(toolDir))
  );
}

function writeLauncher(toolDir, version) {
  const toolsRoot = join(toolDir, ".store", "powershell", version, "powershell", version, "tools");
  const framework = readdirSync(toolsRoot).find((entry) =>
    existsSync(join(toolsRoot, entry, "any", "unix", "pwsh.dll")),
  );
  const dotnet = findOnPath("dotnet");
  if (framework === undefined || dotnet === undefined)
    throw new Error(`cannot find pwsh.dll under ${toolsRoot} or dotnet on PATH`);
  const dll = join(toolsRoot, framework, "any", "unix", "pwsh.dll");
  const launcher = pwshPathIn(toolDir);
  mkdirSync(dirname(launcher), { recursive: true });
  writeFileSync(launcher, `#!/bin/sh\nexec '${dotnet}' '${dll}' "$@"\n`);
  chmodSync(launcher, 0o755);
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function withLock(lockDir, fn) {
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

/**
 * Installs pwsh `version` into `toolDir` with `dotnet tool install` (unless already there) and
 * returns its path. Throws when the install fails or the result does not report `version`;
 * callers check `hasDotnet()` first to say what to install instead.
 */
export function provisionPwshInto(toolDir, { version = pwshVersion, quiet = false } = {}) {
  const say = (line) => quiet || console.log(line);
  if (isProvisioned(toolDir, version)) return pwshPathIn(toolDir);
  return withLock(`${toolDir}.lock`, () => {
    if (isProvisioned(toolDir, version)) return pwshPathIn(toolDir);
    // A first install downloads about 200 MB: never silently, even when quiet.
    process.stderr.write(
      `@csi-proxy/winsim: provisioning PowerShell ${version} into ${toolDir} (dotnet tool install, a one-time download of about 200 MB)...\n`,
    );
    rmSync(toolDir, { recursive: true, force: true });
    execFileSync(
      "dotnet",
      ["tool", "install", "--tool-path", toolDir, "PowerShell", "--version", version],
      {
        stdio: quiet ? "ignore" : ["ignore", "inherit", "inherit"],
        env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: "1", DOTNET_NOLOGO: "1" },
      },
    );
    if (!isWindows) writeLauncher(toolDir, version);
    if (pwshVersionOf(pwshPathIn(toolDir)) !== version)
      throw new Error(`pwsh at ${pwshPathIn(toolDir)} did not report version ${version}`);
    writeFileSync(join(toolDir, "VERSION"), `${version}\n`);
    say(`pwsh ${version} ready at ${pwshPathIn(toolDir)}`);
    return pwshPathIn(toolDir);
  });
}
