import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childPids } from "@csi-proxy/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../src/config.js";
import {
  currentSystem,
  defaultExecutable,
  locateOnWindows,
  type HostSystem,
} from "../src/executable.js";
import { startableFile } from "../src/launch.js";
import { powerShellOn } from "../src/powershell.js";
import { ps } from "../src/script.js";

const system32 = "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe";
const sysnative = "C:\\Windows\\Sysnative\\WindowsPowerShell\\v1.0\\powershell.exe";

/** A Windows host: its environment and the files on it (Windows compares names case-insensitively). */
function windows(env: Record<string, string>, files: readonly string[], arch = "x64"): HostSystem {
  const present = new Set(files.map((file) => file.toLowerCase()));
  return { platform: "win32", arch, env, isFile: (path) => present.has(path.toLowerCase()) };
}

/**
 * What Windows is asked to start when execa starts `file`: execa hands every command to
 * cross-spawn's parse, which on Windows resolves it and runs what it cannot resolve as an .exe
 * through cmd.exe. This loads the very cross-spawn execa uses, with its platform checks seeing
 * Windows (they are taken once, when the module loads).
 */
function windowsCommandLine(file: string, args: readonly string[], env: Record<string, string>) {
  const fromExeca = createRequire(createRequire(import.meta.url).resolve("execa"));
  const platform = process.platform;
  const forget = () => {
    for (const key of Object.keys(fromExeca.cache)) {
      if (/[\\/](cross-spawn|which|isexe|path-key)[\\/]/.test(key))
        Reflect.deleteProperty(fromExeca.cache, key);
    }
  };
  Object.defineProperty(process, "platform", { value: "win32" });
  try {
    forget();
    const parse = fromExeca("cross-spawn/lib/parse.js") as (
      command: string,
      args: string[],
      options: object,
    ) => { command: string; args: string[]; options: { windowsVerbatimArguments?: boolean } };
    return parse(file, [...args], { env });
  } finally {
    Object.defineProperty(process, "platform", { value: platform });
    forget();
  }
}

describe("the default executable on Windows", () => {
  it("is Windows PowerShell by absolute path under SystemRoot, not a name for PATH or the working folder", () => {
    expect(defaultExecutable(windows({ SystemRoot: "C:\\Windows" }, [system32]))).toBe(system32);
    // Windows reads environment names in any case.
    expect(defaultExecutable(windows({ SYSTEMROOT: "D:\\WINNT" }, []))).toBe(
      "D:\\WINNT\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
    );
  });

  it("is the Sysnative one from a 32-bit Node on 64-bit Windows, where System32 means SysWOW64", () => {
    const wow64 = windows({ SystemRoot: "C:\\Windows" }, [system32, sysnative], "ia32");
    expect(defaultExecutable(wow64)).toBe(sysnative);
    // 32-bit Windows has no Sysnative alias; a 64-bit process does not see it either.
    expect(defaultExecutable(windows({ SystemRoot: "C:\\Windows" }, [system32], "ia32"))).toBe(
      system32,
    );
    expect(defaultExecutable(windows({ SystemRoot: "C:\\Windows" }, [system32, sysnative]))).toBe(
      system32,
    );
  });

  it("falls back to powershell.exe on PATH only without SystemRoot, and is pwsh elsewhere", () => {
    expect(defaultExecutable(windows({}, []))).toBe("powershell.exe");
    expect(defaultExecutable({ ...currentSystem(), platform: "linux" })).toBe("pwsh");
  });
});

describe("finding the executable on Windows", () => {
  const pwsh7 = "C:\\Program Files\\PowerShell\\7\\pwsh.exe";

  it("searches PATH (quoted folders too) with PATHEXT, never the working folder", () => {
    const host = windows({ Path: 'C:\\Windows\\system32;"C:\\Program Files\\PowerShell\\7"' }, [
      pwsh7,
    ]);
    expect(locateOnWindows("pwsh.exe", host)).toBe(pwsh7);
    expect(locateOnWindows("pwsh", host)).toBe("C:\\Program Files\\PowerShell\\7\\pwsh.EXE");
    expect(
      locateOnWindows("pwsh.exe", windows({ PATH: "C:\\Windows" }, [`${process.cwd()}\\pwsh.exe`])),
    ).toBeUndefined();
  });

  it("takes a path with a folder as it is, and finds nothing that is not there", () => {
    expect(locateOnWindows(system32, windows({}, [system32]))).toBe(system32);
    expect(
      locateOnWindows(system32, windows({ PATH: "C:\\Windows\\System32" }, [])),
    ).toBeUndefined();
  });
});

describe("what Windows is asked to start", () => {
  // Real folders, so cross-spawn's own lookup sees the same files as ours.
  const scratch = mkdtempSync(join(tmpdir(), "exec-windows-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const onPath = join(scratch, "bin");
  const empty = join(scratch, "empty");
  mkdirSync(onPath);
  mkdirSync(empty);
  writeFileSync(join(onPath, "pwsh.exe"), "MZ");

  it("a found executable is started directly, by the path found, with the arguments as they are", () => {
    const host: HostSystem = { ...currentSystem(), platform: "win32", env: { PATH: onPath } };
    const config = resolveConfig({ executable: "pwsh.exe" }, host);
    const file = startableFile(config);
    expect(file).toBe(`${onPath}/pwsh.exe`);
    const started = windowsCommandLine(file ?? "", config.args, { PATH: onPath });
    expect(started.command).toBe(file);
    expect(started.args).toEqual(config.args);
    expect(started.options.windowsVerbatimArguments).toBeUndefined();
  });

  it("a missing executable is EXECUTABLE_NOT_FOUND and nothing starts, where execa would run cmd.exe", async () => {
    const host: HostSystem = { ...currentSystem(), platform: "win32", env: { PATH: empty } };
    const config = resolveConfig({ executable: "pwsh.exe" }, host);
    expect(startableFile(config)).toBeUndefined();
    // What starting it by name would have meant: cmd.exe, which exits 1 with a localised
    // "'pwsh.exe' is not recognized ..." on stderr, a PROCESS_EXITED instead of this code.
    const byName = windowsCommandLine("pwsh.exe", config.args, { PATH: empty });
    expect(byName.command).toMatch(/cmd\.exe$/i);
    expect(byName.args.slice(0, 5)).toEqual(["/d", "/e:on", "/v:off", "/s", "/c"]);
    const before = new Set(childPids());
    for (const mode of ["session", "spawn"] as const) {
      const shell = powerShellOn({ ...config, mode });
      await expect(shell.run(ps("test.any")`1`)).rejects.toMatchObject({
        code: "EXECUTABLE_NOT_FOUND",
        message: expect.stringContaining('"pwsh.exe" was not found') as unknown,
      });
      await shell.close();
    }
    expect(childPids().filter((pid) => !before.has(pid))).toEqual([]);
  });
});
