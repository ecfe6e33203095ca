import { invalidArgument } from "./errors.js";
import { groupOptions, objectOption } from "./group-options.js";
import { createPowerShell, type PowerShell } from "./powershell.js";

/** What every API group's constructor accepts: its own host layer, or a PowerShell to run on. */
export interface HostOptions<H> {
  /** The PowerShell to run scripts on. Default: a new `createPowerShell()`, closed by `close()`. */
  shell?: PowerShell | undefined;
  /** The host layer to use instead of PowerShell (tests, other back ends). */
  host?: H | undefined;
}

/** A group's host layer, and how to release what the group created for it. */
export interface HostBinding<H> {
  /** The host layer the group calls. */
  readonly host: H;
  /** Closes the PowerShell the group created itself; a shell or host passed in is the caller's. */
  close(): Promise<void>;
}

/**
 * Resolves a group's host: the given `host`, else `createHost` on the given `shell`, else on a
 * new PowerShell that the binding owns. Giving both is INVALID_ARGUMENT.
 *
 * @example
 * ```ts
 * class Quota {
 *   private readonly binding: HostBinding<QuotaHost>;
 *   constructor(options: HostOptions<QuotaHost> = {}) {
 *     this.binding = bindHost("Quota", options, createPowerShellQuotaHost);
 *   }
 *   close(): Promise<void> {
 *     return this.binding.close(); // ends only a PowerShell the binding created
 *   }
 * }
 * ```
 */
export function bindHost<H>(
  group: string,
  options: HostOptions<H>,
  createHost: (shell: PowerShell) => H,
): HostBinding<H> {
  const own = groupOptions(options, group);
  const given = objectOption(own("host"), `${group}: host`) as H | undefined;
  const shell = objectOption(own("shell"), `${group}: shell`) as PowerShell | undefined;
  if (given !== undefined && shell !== undefined) {
    throw invalidArgument(`${group} takes a host or a shell, not both.`);
  }
  if (shell !== undefined && typeof shell.run !== "function") {
    throw invalidArgument(`${group}: shell must be a PowerShell from createPowerShell().`);
  }
  if (given !== undefined) return { host: given, close: () => Promise.resolve() };
  const owned = shell === undefined ? createPowerShell() : undefined;
  const host = createHost(shell ?? (owned as PowerShell));
  return { host, close: async () => owned?.close() };
}
