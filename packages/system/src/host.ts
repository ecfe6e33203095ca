import {
  noCallContext,
  type CallContext,
  type Params,
  type PowerShell,
  type RunOptions,
  type Script,
} from "@csi-proxy/exec";
import {
  parseBiosSerialNumber,
  parseDependencies,
  parseService,
  parseServiceWait,
} from "./parse.js";
import {
  biosSerialNumberScript,
  dependentsScript,
  getServiceScript,
  startServiceScript,
  stopServiceScript,
} from "./scripts.js";
import { checkServiceName } from "./validate.js";

/** Every script the system group runs, by name, for audits and static checks (e.g. PowerShell 5.1 syntax). */
export const systemScripts: Readonly<Record<string, Script>> = Object.freeze({
  biosSerialNumber: biosSerialNumberScript,
  getService: getServiceScript,
  dependents: dependentsScript,
  startService: startServiceScript,
  stopService: stopServiceScript,
});

/** A service as the host reports it. Codes are raw: .NET `ServiceControllerStatus`/`ServiceStartMode`. */
export interface HostService {
  /** The key name (`ServiceName`), in Windows' own case. */
  readonly name: string;
  /** `DisplayName`. */
  readonly displayName: string;
  /** 1 Stopped … 7 Paused; null when Windows gave none. */
  readonly status: number | null;
  /** 0 Boot … 4 Disabled; null when Windows gave none. */
  readonly startType: number | null;
}

/** One entry of a service's `DependentServices`: `name` depends on `parent`. */
export interface HostDependentEdge {
  /** The service `name` depends on. */
  readonly parent: string;
  /** The dependent service's key name. */
  readonly name: string;
  /** Its raw status code; null when Windows gave none. */
  readonly status: number | null;
}

/** A service and every service that depends on it, directly or not. */
export interface HostDependencies {
  /** The service's key name, in Windows' own case. */
  readonly name: string;
  /** Its raw status code; null when Windows gave none. */
  readonly status: number | null;
  /** Edges found walking `DependentServices` breadth first from the service. */
  readonly dependents: readonly HostDependentEdge[];
}

/** How long a start or stop may wait, and how often it looks. */
export interface HostWait {
  /** The script's own deadline, in milliseconds from when it starts. */
  readonly timeoutMs: number;
  /** Pause between two looks at the service's status. */
  readonly pollMs: number;
}

/** What a start or stop saw when it finished waiting. */
export interface HostServiceWait {
  /** The last status seen (raw code). */
  readonly status: number;
  /** The start type seen with it (raw code), null when Windows gave none. */
  readonly startType: number | null;
  /** Whether the script asked Windows to start or stop the service. */
  readonly requested: boolean;
  /** Whether it gave up because the deadline passed. */
  readonly timedOut: boolean;
}

/**
 * The host operations {@link System} is built from: one PowerShell call per method, no policy.
 * Names passed in are already validated. Failures are thrown as they come (e.g. a
 * `PowerShellError` whose record says `NoServiceFoundForGivenName`); `System` maps them to codes.
 * Every method's last parameter, `context`, is the calling method's deadline and signal
 * (`System` always passes it; a host may ignore it, and without it nothing is bounded).
 */
export interface SystemHost {
  /** `Win32_BIOS.SerialNumber` of the first instance, untrimmed; null when there is none. */
  getBiosSerialNumber(context?: CallContext): Promise<string | null>;
  /** One service by name. */
  getService(name: string, context?: CallContext): Promise<HostService>;
  /** The service and everything that depends on it (the `DependentServices` closure). */
  getDependencies(name: string, context?: CallContext): Promise<HostDependencies>;
  /**
   * Starts the service unless it runs, then waits for Running within `wait.timeoutMs`. Gives up
   * early, without starting, when the service is disabled or paused, or when it stopped again.
   */
  startService(name: string, wait: HostWait, context?: CallContext): Promise<HostServiceWait>;
  /**
   * Stops the service unless it is stopped, then waits for Stopped within `wait.timeoutMs`.
   * Never stops dependents: while one is not stopped it fails (`ServiceHasDependentServices`).
   */
  stopService(name: string, wait: HostWait, context?: CallContext): Promise<HostServiceWait>;
}

/** Extra time the PowerShell process gets beyond a script's own deadline before it is killed. */
export const processGraceMs = 10_000;

/**
 * The PowerShell-backed {@link SystemHost}: every method is one call of a constant script. A
 * start or stop also bounds its process with `timeoutMs` = the script's deadline + 10 s, so a
 * script that overruns its own deadline is killed (`TIMEOUT`). Every run is also bounded by the
 * calling method's `context`: its signal, and what is left of its deadline.
 *
 * @example
 * ```ts
 * const host = createPowerShellSystemHost(createPowerShell());
 * const system = new System({ host });
 * ```
 */
export function createPowerShellSystemHost(shell: PowerShell): SystemHost {
  // The one place a run gets its options: the method's signal and what is left of its deadline.
  function run(
    script: Script,
    params: Params | undefined,
    context: CallContext | undefined,
    options?: RunOptions,
  ): Promise<unknown> {
    return shell.run(script, params, (context ?? noCallContext).runOptions(options));
  }

  async function waitFor(
    script: Script,
    name: string,
    wait: HostWait,
    context: CallContext | undefined,
  ): Promise<HostServiceWait> {
    const params = { Name: checked(name), TimeoutMs: wait.timeoutMs, PollMs: wait.pollMs };
    const timeoutMs = wait.timeoutMs + processGraceMs;
    return parseServiceWait(await run(script, params, context, { timeoutMs }));
  }

  return {
    async getBiosSerialNumber(context) {
      return parseBiosSerialNumber(await run(biosSerialNumberScript, undefined, context));
    },
    async getService(name, context) {
      return parseService(await run(getServiceScript, { Name: checked(name) }, context));
    },
    async getDependencies(name, context) {
      return parseDependencies(await run(dependentsScript, { Name: checked(name) }, context));
    },
    startService: (name, wait, context) => waitFor(startServiceScript, name, wait, context),
    stopService: (name, wait, context) => waitFor(stopServiceScript, name, wait, context),
  };
}

// Checked here too, so this host never hands Get-Service a wildcard whoever calls it.
function checked(name: string): string {
  return checkServiceName(name, "SystemHost");
}
