import { statSync } from "node:fs";
import { win32 } from "node:path";

/** The facts the default executable and its lookup depend on; tests inject Windows ones. */
export interface HostSystem {
  /** `process.platform`. */
  readonly platform: string;
  /** `process.arch`: `ia32` is a 32-bit Node, which WOW64 redirects on 64-bit Windows. */
  readonly arch: string;
  /** The environment PowerShell inherits (`SystemRoot`, `PATH`, ...). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether a regular file exists at this path. */
  readonly isFile: (path: string) => boolean;
}

/** This process's platform, architecture, environment and file system. */
export function currentSystem(): HostSystem {
  return {
    platform: process.platform,
    arch: process.arch,
    env: process.env,
    isFile: (path) => statSync(path, { throwIfNoEntry: false })?.isFile() === true,
  };
}

/** A variable as Windows reads it: names are case-insensitive there. */
export function windowsEnv(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string | undefined {
  const key = Object.keys(env).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : env[key];
  return value === "" ? undefined : value;
}

/**
 * Windows PowerShell 5.1 by absolute path on Windows, so neither the working folder nor PATH
 * decides which `powershell.exe` runs (HostProcess images may set a PATH without it), else `pwsh`.
 * A 32-bit Node on 64-bit Windows has `System32` redirected to the 32-bit `SysWOW64` copy, which
 * lacks 64-bit-only modules; `Sysnative` is WOW64's alias for the real one, seen only by 32-bit
 * processes (learn.microsoft.com, "File System Redirector"). Without `SystemRoot` (or `windir`)
 * it falls back to `powershell.exe` found on PATH.
 */
export function defaultExecutable(system: HostSystem): string {
  if (system.platform !== "win32") return "pwsh";
  const root = windowsEnv(system.env, "SystemRoot") ?? windowsEnv(system.env, "windir");
  if (root === undefined || !win32.isAbsolute(root)) return "powershell.exe";
  const inFolder = (folder: string) =>
    win32.join(root, folder, "WindowsPowerShell", "v1.0", "powershell.exe");
  const native = inFolder("Sysnative");
  return system.arch === "ia32" && system.isFile(native) ? native : inFolder("System32");
}

const defaultPathExt = ".COM;.EXE;.BAT;.CMD";

// Join with the separator the folder itself uses: Windows takes both.
function joinName(dir: string, name: string): string {
  const separator = dir.includes("/") && !dir.includes("\\") ? "/" : "\\";
  return dir.endsWith(separator) ? dir + name : dir + separator + name;
}

/**
 * Where Windows would find `executable`: the path itself when it names a folder, else the first
 * PATH folder holding it (with PATHEXT's extensions when it has none). Unlike a shell, the
 * working folder is not searched. Undefined when it is nowhere: the caller then reports
 * `EXECUTABLE_NOT_FOUND` instead of starting it, since execa (cross-spawn) would run a name it
 * cannot resolve through `cmd.exe`, which fails with a localised "is not recognized" message.
 */
export function locateOnWindows(executable: string, system: HostSystem): string | undefined {
  const hasExtension = /\.[^.\\/]+$/.test(executable);
  const extensions = hasExtension
    ? [""]
    : (windowsEnv(system.env, "PATHEXT") ?? defaultPathExt).split(";").filter((e) => e !== "");
  const candidates = (base: string) => extensions.map((extension) => base + extension);
  if (/[\\/]/.test(executable) || win32.isAbsolute(executable)) {
    return candidates(executable).find(system.isFile);
  }
  for (const entry of (windowsEnv(system.env, "PATH") ?? "").split(";")) {
    const dir = entry.trim().replace(/^"(.*)"$/, "$1");
    if (dir === "") continue;
    const found = candidates(joinName(dir, executable)).find(system.isFile);
    if (found !== undefined) return found;
  }
  return undefined;
}
