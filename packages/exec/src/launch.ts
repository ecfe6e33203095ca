import { spawn } from "node:child_process";
import { execa } from "execa";
import { onExit } from "signal-exit";
import type { Outcome } from "./call.js";
import type { ResolvedConfig } from "./config.js";
import { locateOnWindows } from "./executable.js";
import { languageModeExitCode, languageModeMarker } from "./host-script.js";

const isWindows = process.platform === "win32";

const launchOptions = {
  extendEnv: false,
  reject: false,
  // On POSIX each PowerShell leads its own process group, so a kill reaches whatever it started
  // (the dotnet tool shim runs pwsh as a child); the exit hook below replaces execa's cleanup.
  detached: !isWindows,
  cleanup: isWindows,
  windowsHide: true,
  stripFinalNewline: false,
  killSignal: "SIGKILL",
  forceKillAfterDelay: false,
  // Windows PowerShell 5.1 writes stderr (and stray stdout) in the console's OEM code page
  // (Console uses GetConsoleOutputCP), so non-ASCII in that text may read garbled here. Frames,
  // results and error records are base64 ASCII and are not affected.
  encoding: "utf8",
} as const;

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function track(pid: number | undefined, done: Promise<unknown>): void {
  if (isWindows || pid === undefined) return;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // No PowerShell process outlives this one, whether it exits normally or on a signal.
    onExit(() => {
      for (const group of liveGroups) killGroup(group);
    });
  }
  liveGroups.add(pid);
  void done.finally(() => liveGroups.delete(pid));
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Kills a PowerShell process and everything it started. */
export function killTree(subprocess: {
  pid?: number | undefined;
  kill(signal?: NodeJS.Signals): boolean;
}): void {
  const { pid } = subprocess;
  if (pid === undefined) return;
  if (isWindows) {
    spawn("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true }).on(
      "error",
      () => undefined,
    );
    subprocess.kill("SIGKILL");
  } else {
    killGroup(pid);
  }
}

/**
 * The file to start, or undefined when it cannot be found: then nothing is started and the call
 * is `EXECUTABLE_NOT_FOUND`. On Windows the name is resolved here, since execa (cross-spawn) runs
 * a name it cannot resolve through `cmd.exe`, and the call would end as a process that exited
 * with cmd's localised "is not recognized" text. Elsewhere the spawn itself reports ENOENT.
 */
export function startableFile(config: ResolvedConfig): string | undefined {
  if (config.system.platform !== "win32") return config.executable;
  return locateOnWindows(config.executable, { ...config.system, env: config.env });
}

/** The failure of a call whose PowerShell executable does not exist. */
export function executableNotFound(config: ResolvedConfig, cause?: unknown): Outcome {
  return {
    kind: "failure",
    code: "EXECUTABLE_NOT_FOUND",
    message: `PowerShell executable "${config.executable}" was not found: install PowerShell or set the executable option.`,
    cause,
  };
}

/** Starts a long-lived PowerShell (`file`, from {@link startableFile}) whose stdio the caller streams (session mode). */
export function launchStreaming(config: ResolvedConfig, file: string) {
  const subprocess = execa(file, config.args, {
    ...launchOptions,
    env: config.env,
    buffer: false,
    stdin: "pipe",
  });
  track(subprocess.pid, subprocess);
  return subprocess;
}

/** Starts a PowerShell (`file`) that reads `input`, then stdin closes, and buffers its output (spawn mode). */
export function launchBuffered(config: ResolvedConfig, file: string, input: string) {
  const subprocess = execa(file, config.args, {
    ...launchOptions,
    env: config.env,
    input,
  });
  track(subprocess.pid, subprocess);
  return subprocess;
}

/** Maps a process that ended without answering to the right failure. */
export function exitFailure(
  config: ResolvedConfig,
  result: {
    exitCode?: number | undefined;
    signal?: string | undefined;
    code?: string | undefined;
    cause?: unknown;
  },
  details: { stderr: string; stdout: string; scriptName: string },
): Outcome {
  if (result.code === "ENOENT") return { ...executableNotFound(config, result.cause), ...details };
  const mode = languageModeOf(result.exitCode, details.stdout);
  if (mode !== undefined) {
    return {
      kind: "failure",
      code: "FAILED_PRECONDITION",
      message: `PowerShell runs in ${mode} mode (an App Control for Business/WDAC or AppLocker policy on this host); csi-proxy needs FullLanguage, so no script can run.`,
      exitCode: result.exitCode,
      ...details,
    };
  }
  const how =
    result.signal === undefined
      ? `with exit code ${String(result.exitCode)}`
      : `on signal ${result.signal}`;
  const lastLine = details.stderr.trim().split("\n").pop()?.trim();
  const interrupted = result.signal !== undefined && outsideSignals.has(result.signal);
  return {
    kind: "failure",
    // Ended by someone else: a Ctrl-C reaches every process of the terminal's group, and one
    // still starting is in that group until it detaches. The library itself only sends SIGKILL.
    code: interrupted ? "ABORTED" : "PROCESS_EXITED",
    message: interrupted
      ? `${details.scriptName} was aborted: its PowerShell process was ended by ${String(result.signal)} from outside.`
      : `PowerShell exited ${how} while running ${details.scriptName}${lastLine ? `: ${lastLine}` : "."}`,
    exitCode: result.exitCode,
    signal: result.signal,
    cause: result.cause,
    stderr: details.stderr,
    stdout: details.stdout,
  };
}

/** Signals that stop a process from outside (a terminal, a service manager), not a crash. */
const outsideSignals = new Set(["SIGINT", "SIGTERM", "SIGHUP"]);

/** The language mode a process reported before exiting, when the bootstrap refused to start. */
function languageModeOf(exitCode: number | undefined, stdout: string): string | undefined {
  if (exitCode !== languageModeExitCode) return undefined;
  const line = stdout.split(/\r?\n/).find((l) => l.startsWith(`${languageModeMarker} `));
  const mode = line?.slice(languageModeMarker.length + 1).replace(/[^A-Za-z]/g, "");
  return mode === "" ? undefined : mode;
}
