import { homedir } from "node:os";
import { join } from "node:path";
import { CsiProxyError } from "@csi-proxy/exec";
import {
  findOnPath,
  hasDotnet,
  isProvisioned,
  provisionPwshInto,
  pwshPathIn,
  pwshVersion,
  pwshVersionOf,
} from "../provision.mjs";

/** The PowerShell version {@link findPwsh} provisions when none is found (the one this package is tested with). */
export const simulatorPwshVersion: string = pwshVersion;

/** Options for {@link findPwsh}. */
export interface FindPwshOptions {
  /** A pwsh 7 executable to use; wins over `CSI_WINSIM_PWSH`, PATH and provisioning. */
  readonly path?: string;
  /**
   * Where a provisioned pwsh is kept, as `<cacheDir>/pwsh-<version>`. Default:
   * `CSI_WINSIM_CACHE`, else `$XDG_CACHE_HOME/csi-proxy-winsim`, else `~/.cache/csi-proxy-winsim`.
   */
  readonly cacheDir?: string;
  /** Whether to install pwsh with `dotnet tool install` when none is found. Default true. */
  readonly provision?: boolean;
  /** Print progress while provisioning (a first install takes a minute). Default false. */
  readonly verbose?: boolean;
  /** The environment to read `CSI_WINSIM_PWSH`, `CSI_WINSIM_CACHE`, `XDG_CACHE_HOME` and `PATH` from. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Thrown by {@link findPwsh} when no usable PowerShell 7 exists and none can be provisioned
 * (code `EXECUTABLE_NOT_FOUND`). The message says what to install.
 */
export class PwshNotFoundError extends CsiProxyError {
  /** What was tried, in order, and why each was not used. */
  readonly attempts: readonly string[];

  constructor(message: string, attempts: readonly string[], cause?: unknown) {
    super(
      message,
      cause === undefined
        ? { code: "EXECUTABLE_NOT_FOUND" }
        : { code: "EXECUTABLE_NOT_FOUND", cause },
    );
    this.attempts = attempts;
  }
}

Object.defineProperty(PwshNotFoundError.prototype, "name", {
  value: "PwshNotFoundError",
  writable: true,
  configurable: true,
});

const installHint =
  "Install PowerShell 7 and put `pwsh` on PATH (https://learn.microsoft.com/powershell/scripting/install/installing-powershell-on-linux), " +
  "or install the .NET SDK 8 or newer (e.g. `apt-get install dotnet-sdk-8.0`) so @csi-proxy/winsim can provision it, " +
  "or set CSI_WINSIM_PWSH to a pwsh 7 executable.";

/** The folder provisioned copies live under (see {@link FindPwshOptions.cacheDir}). */
export function winsimCacheDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const own = env.CSI_WINSIM_CACHE;
  if (own !== undefined && own !== "") return own;
  const xdg = env.XDG_CACHE_HOME;
  return join(
    xdg !== undefined && xdg !== "" ? xdg : join(homedir(), ".cache"),
    "csi-proxy-winsim",
  );
}

// The simulator's module targets PowerShell 7 (docs/design/winsim.md): 5.1 or 6 will not load it.
function isPwsh7(version: string | undefined): boolean {
  return version !== undefined && /^7\./.test(version);
}

/**
 * Finds PowerShell 7 to run the simulator with, in this order: `options.path`, then the
 * `CSI_WINSIM_PWSH` environment variable (either must run and report 7.x, or this throws), then
 * `pwsh` on PATH when it reports 7.x, else a copy provisioned as a .NET tool
 * (`dotnet tool install PowerShell --version {@link simulatorPwshVersion}`) into the cache folder.
 * Provisioning blocks the event loop while `dotnet` runs and says so in one line on stderr;
 * later calls reuse the copy.
 *
 * @throws {@link PwshNotFoundError} (code `EXECUTABLE_NOT_FOUND`) when none of that works.
 *
 * @example
 * ```ts
 * import { findPwsh } from "@csi-proxy/winsim";
 *
 * const pwsh = await findPwsh(); // e.g. "/usr/bin/pwsh"
 * ```
 */
export function findPwsh(options: FindPwshOptions = {}): Promise<string> {
  return new Promise((resolve) => resolve(findPwshSync(options)));
}

function findPwshSync(options: FindPwshOptions): string {
  const env = options.env ?? process.env;
  const fromEnv = env.CSI_WINSIM_PWSH;
  const explicit = options.path ?? (fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined);
  if (explicit !== undefined) {
    const version = pwshVersionOf(explicit);
    if (isPwsh7(version)) return explicit;
    const source = options.path === undefined ? "CSI_WINSIM_PWSH" : "options.path";
    const what = version === undefined ? "does not run" : `reports PowerShell ${version}`;
    const attempt = `${source} ${explicit} ${what}`;
    throw new PwshNotFoundError(`${attempt}; the simulator needs PowerShell 7. ${installHint}`, [
      attempt,
    ]);
  }
  const attempts: string[] = [];
  const onPath = findOnPath("pwsh", env.PATH);
  if (onPath === undefined) attempts.push("no pwsh on PATH");
  else {
    const version = pwshVersionOf(onPath);
    if (isPwsh7(version)) return onPath;
    attempts.push(
      `pwsh on PATH (${onPath}) ${version === undefined ? "does not run" : `reports ${version}`}`,
    );
  }
  const toolDir = join(options.cacheDir ?? winsimCacheDir(env), `pwsh-${pwshVersion}`);
  // A copy provisioned earlier is reused even where provisioning is off.
  if (isProvisioned(toolDir)) return pwshPathIn(toolDir);
  if (options.provision === false) attempts.push("provisioning turned off");
  else if (!hasDotnet()) attempts.push("no .NET SDK (`dotnet`) to provision pwsh with");
  else {
    try {
      return provisionPwshInto(toolDir, { quiet: options.verbose !== true });
    } catch (error) {
      attempts.push(`provisioning into ${toolDir} failed`);
      throw new PwshNotFoundError(
        `No PowerShell 7 for the simulator (${attempts.join("; ")}). ${installHint}`,
        attempts,
        error,
      );
    }
  }
  throw new PwshNotFoundError(
    `No PowerShell 7 for the simulator (${attempts.join("; ")}). ${installHint}`,
    attempts,
  );
}
