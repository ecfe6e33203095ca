import { invalidArgument } from "./errors.js";
import { bootstrapCommand } from "./host-script.js";
import type { ExecMode } from "./types.js";

/** Options of {@link createPowerShell}. */
export interface PowerShellOptions {
  /**
   * The PowerShell to run. Default: `powershell.exe` (Windows PowerShell 5.1, where the Storage,
   * SMB and iSCSI modules live) on Windows, `pwsh` elsewhere.
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
  /** Environment variables added to (or overriding) the inherited environment. */
  env?: Readonly<Record<string, string>>;
  /** Modules (names or paths) every process imports before its first call, e.g. a simulator. */
  modules?: readonly string[];
  /** ConvertTo-Json depth for results. Default 24. */
  depth?: number;
}

export interface ResolvedConfig {
  readonly executable: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly mode: ExecMode;
  readonly poolSize: number;
  readonly timeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly modules: readonly string[];
  readonly depth: number;
}

function positiveInteger(
  name: string,
  value: number | undefined,
  fallback: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw invalidArgument(`${name} must be an integer from 1 to ${max}, got ${String(value)}.`);
  }
  return value;
}

/** Whether the executable is Windows PowerShell 5.1 rather than PowerShell 7. */
export function isWindowsPowerShell(executable: string): boolean {
  return /(^|[\\/])powershell(\.exe)?$/i.test(executable);
}

export function resolveConfig(
  options: PowerShellOptions = {},
  platform: string = process.platform, // not NodeJS.Platform: the .d.ts must not need @types/node
): ResolvedConfig {
  const executable = options.executable ?? (platform === "win32" ? "powershell.exe" : "pwsh");
  if (executable.trim() === "") throw invalidArgument("executable must not be empty.");
  // Checked at run time too: JavaScript callers get no compile-time check.
  const mode = (options.mode ?? "session") as string;
  if (mode !== "session" && mode !== "spawn")
    throw invalidArgument(`mode must be "session" or "spawn".`);
  const winPs = isWindowsPowerShell(executable);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // A PSModulePath inherited from pwsh 7 makes Windows PowerShell load 7's modules and fail.
    if (value !== undefined && !(winPs && key.toLowerCase() === "psmodulepath")) env[key] = value;
  }
  Object.assign(
    env,
    { POWERSHELL_TELEMETRY_OPTOUT: "1", POWERSHELL_UPDATECHECK: "Off" },
    options.env,
  );
  for (const module of options.modules ?? []) {
    if (typeof module !== "string" || module.trim() === "")
      throw invalidArgument("modules must be non-empty strings.");
  }
  return {
    executable,
    args: [
      "-NoLogo",
      "-NoProfile",
      "-NonInteractive",
      // csi-proxy ran Windows PowerShell in the MTA for WMI; pwsh 7 is MTA already.
      ...(winPs ? ["-Mta"] : []),
      "-ExecutionPolicy",
      "Bypass",
      "-Command",
      bootstrapCommand,
    ],
    env,
    mode,
    poolSize: positiveInteger("poolSize", options.poolSize, 1, 64),
    timeoutMs: positiveInteger("timeoutMs", options.timeoutMs, 120_000, 2 ** 31 - 1),
    idleTimeoutMs: positiveInteger("idleTimeoutMs", options.idleTimeoutMs, 30_000, 2 ** 31 - 1),
    modules: options.modules ?? [],
    depth: positiveInteger("depth", options.depth, 24, 98),
  };
}
