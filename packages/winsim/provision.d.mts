/** The PowerShell version the simulator is tested against and provisions by default. */
export declare const pwshVersion: string;
/** Where the pwsh of a tool dir made by {@link provisionPwshInto} is (whether or not it exists). */
export declare function pwshPathIn(toolDir: string): string;
/** The first `name` on `path` (default: PATH; Windows adds .exe), resolved through links. */
export declare function findOnPath(name: string, path?: string): string | undefined;
/**
 * The PowerShell version `path` reports (`$PSVersionTable.PSVersion`), or undefined when it does
 * not start; throws an Error with `code` `ABORTED` when the probe was killed by SIGINT, SIGTERM or
 * SIGHUP (an interrupted run says nothing of whether pwsh runs).
 */
export declare function pwshVersionOf(path: string): string | undefined;
/** Whether `dotnet --version` runs. */
export declare function hasDotnet(): boolean;
/** Whether `toolDir` already holds pwsh `version` (its VERSION stamp says so). */
export declare function isProvisioned(toolDir: string, version?: string): boolean;
/**
 * Installs pwsh `version` into `toolDir` with `dotnet tool install` (unless already there) and
 * returns its path, saying so in one line on stderr first (even with `quiet`). Throws when the
 * install fails or the result does not report `version`.
 */
export declare function provisionPwshInto(
  toolDir: string,
  options?: { version?: string; quiet?: boolean },
): string;
