import { invalidArgument } from "./errors.js";
import { currentSystem, defaultExecutable, type HostSystem } from "./executable.js";
import { bootstrapCommand } from "./host-script.js";
import { maxTimeoutMs, ownField, positiveInteger, stringList } from "./run-options.js";
import { checkWellFormed } from "./validate.js";
import type { ExecMode } from "./types.js";

/** Options of {@link createPowerShell}. */
export interface PowerShellOptions {
  /**
   * The PowerShell to run. Default on Windows: Windows PowerShell 5.1 (where the Storage, SMB and
   * iSCSI modules live) by absolute path, `%SystemRoot%\System32\WindowsPowerShell\v1.0\powershell.exe`
   * (`Sysnative` from a 32-bit Node); `pwsh` elsewhere. On Windows a name without a folder is
   * looked up on PATH only (not in the working folder), and one found nowhere is
   * `EXECUTABLE_NOT_FOUND`. PowerShell 7 (`pwsh.exe`) is not verified for iSCSI on Windows: the
   * iSCSI module loads there through Windows PowerShell compatibility (deserialized objects, CIM
   * error details likely lost), so keep the default on nodes.
   */
  executable?: string;
  /** `session` (default) keeps processes and feeds them framed requests; `spawn` starts one per call. */
  mode?: ExecMode;
  /** Session mode: how many PowerShell processes may run calls at once. Default 1. */
  poolSize?: number;
  /** Default per-call timeout in milliseconds. Default 120000. */
  timeoutMs?: number;
  /** Session mode: close a process after it has been idle this long. Default 30000. */
  idleTimeoutMs?: number;
  /**
   * Session mode: keep this many processes running through idle periods, and start a
   * replacement when one is ended (e.g. by a cancelled call), so calls never wait for a process
   * start. At most `poolSize`. Default 0. Start them with
   * {@link @csi-proxy/exec!PowerShell.warmUp}.
   */
  keepWarm?: number;
  /** Environment variables added to (or overriding) the inherited environment. */
  env?: Readonly<Record<string, string>>;
  /** Modules (names or paths) every process imports before its first call, e.g. a simulator. */
  modules?: readonly string[];
  /** ConvertTo-Json depth for results. Default 24. */
  depth?: number;
}

export interface ResolvedConfig {
  /** The machine it runs on: where `executable` is looked up, and how. */
  readonly system: HostSystem;
  readonly executable: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly mode: ExecMode;
  readonly poolSize: number;
  readonly timeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly keepWarm: number;
  readonly modules: readonly string[];
  readonly depth: number;
}

/**
 * .NET settings every PowerShell 7 process gets unless its environment already names them.
 * Dynamic PGO keeps re-instrumenting the code PowerShell generates for each command it runs;
 * off, PowerShell spends about half the CPU per call, the p95 halves and a new process's first
 * seconds of calls take half the time; start-up is unchanged (BENCHMARKS.md).
 * Multi-core JIT is off (it needs more CPUs than any machine has, 0xFFFF): pwsh records a
 * start-up profile in its cache folder (`StartupProfileData-NonInteractive`), processes started
 * together corrupt it, and every later pwsh then dies of SIGSEGV at start until the file is
 * deleted (PowerShell/PowerShell#26528, dotnet/runtime#81799; it happened to this project's CI).
 * Windows PowerShell's .NET Framework ignores them.
 */
export const dotnetRuntimeDefaults: Readonly<Record<string, string>> = Object.freeze({
  DOTNET_TieredPGO: "0",
  DOTNET_MultiCoreJitMinNumCpus: "FFFF",
});

/** Whether the executable is Windows PowerShell 5.1 rather than PowerShell 7. */
export function isWindowsPowerShell(executable: string): boolean {
  return /(^|[\\/])powershell(\.exe)?$/i.test(executable);
}

const optionNames = new Set([
  "executable",
  "mode",
  "poolSize",
  "timeoutMs",
  "idleTimeoutMs",
  "keepWarm",
  "env",
  "modules",
  "depth",
]);

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "" || value.includes("\0")) {
    throw invalidArgument(`${name} must be a non-empty string without NUL characters.`);
  }
  checkWellFormed(value, name);
  return value;
}

/** `env`: an object of string values (names without `=` or NUL), else INVALID_ARGUMENT. */
function checkEnv(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalidArgument("env must be an object of strings.");
  }
  const env: Record<string, string> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (key === "" || key.includes("=") || key.includes("\0") || key === "__proto__") {
      throw invalidArgument(`env has an invalid variable name ${JSON.stringify(key)}.`);
    }
    if (typeof item !== "string" || item.includes("\0")) {
      throw invalidArgument(`env.${key} must be a string without NUL characters.`);
    }
    checkWellFormed(key, "An env name");
    checkWellFormed(item, `env.${key}`);
    env[key] = item;
  }
  return env;
}

/**
 * Checks every option (JavaScript callers get no compile-time check) before anything starts;
 * reads own properties only. Unknown options are INVALID_ARGUMENT, so a misspelling is not ignored.
 */
export function resolveConfig(
  options: PowerShellOptions | undefined = {},
  system: HostSystem = currentSystem(),
): ResolvedConfig {
  const given: unknown = options;
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw invalidArgument("createPowerShell takes an options object.");
  }
  for (const key of Object.keys(options)) {
    if (!optionNames.has(key)) throw invalidArgument(`Unknown option ${JSON.stringify(key)}.`);
  }
  const own = (key: string): unknown => ownField(options, key);
  const executable = optionalString(own("executable"), "executable") ?? defaultExecutable(system);
  const mode = own("mode") ?? "session";
  if (mode !== "session" && mode !== "spawn")
    throw invalidArgument(`mode must be "session" or "spawn".`);
  const modules = own("modules") === undefined ? [] : stringList(own("modules"), "modules");
  for (const module of modules) {
    if (module.trim() === "") throw invalidArgument("modules must be non-empty strings.");
    checkWellFormed(module, "A module name");
  }
  const extraEnv = checkEnv(own("env"));
  const poolSize = positiveInteger("poolSize", own("poolSize"), 1, 64);
  const timeoutMs = positiveInteger("timeoutMs", own("timeoutMs"), 120_000, maxTimeoutMs);
  const idleTimeoutMs = positiveInteger(
    "idleTimeoutMs",
    own("idleTimeoutMs"),
    30_000,
    maxTimeoutMs,
  );
  const depth = positiveInteger("depth", own("depth"), 24, 98);
  const keepWarm = own("keepWarm") === 0 ? 0 : positiveInteger("keepWarm", own("keepWarm"), 0, 64);
  if (keepWarm > 0 && mode !== "session") {
    throw invalidArgument(`keepWarm needs mode "session"; mode "spawn" keeps no process.`);
  }
  if (keepWarm > poolSize) {
    throw invalidArgument(`keepWarm (${keepWarm}) cannot exceed poolSize (${poolSize}).`);
  }
  const winPs = isWindowsPowerShell(executable);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(system.env)) {
    // A PSModulePath inherited from pwsh 7 makes Windows PowerShell load 7's modules and fail.
    if (value !== undefined && !(winPs && key.toLowerCase() === "psmodulepath")) env[key] = value;
  }
  for (const [name, value] of Object.entries(dotnetRuntimeDefaults)) {
    if (!Object.keys(env).some((key) => key.toLowerCase() === name.toLowerCase()))
      env[name] = value;
  }
  Object.assign(env, { POWERSHELL_TELEMETRY_OPTOUT: "1", POWERSHELL_UPDATECHECK: "Off" }, extraEnv);
  return {
    system,
    executable,
    args: [
      "-NoLogo",
      "-NoProfile",
      "-NonInteractive",
      // csi-proxy ran Windows PowerShell in the MTA for WMI. pwsh 7 on Windows starts in the STA
      // unless told (CommandLineParameterParser.StaMode), and refuses -Mta on other platforms.
      ...(system.platform === "win32" ? ["-Mta"] : []),
      "-ExecutionPolicy",
      "Bypass",
      "-Command",
      bootstrapCommand,
    ],
    env,
    mode,
    poolSize,
    timeoutMs,
    idleTimeoutMs,
    keepWarm,
    modules: [...modules],
    depth,
  };
}
