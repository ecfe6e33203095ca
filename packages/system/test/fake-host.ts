import { PowerShellError } from "@csi-proxy/exec";
import type {
  HostDependencies,
  HostDependentEdge,
  HostService,
  HostServiceWait,
  HostWait,
  SystemHost,
} from "../src/host.js";

/** What a service does when asked to change state. */
export type Behaviour = "settles" | "stuck" | "fails";

/** A service in the fake host's model; codes are the raw .NET ones. */
export interface FakeService {
  name: string;
  displayName: string;
  status: number | null;
  startType: number | null;
  /** Names of the services that depend on this one directly. */
  dependents: string[];
  /** `stuck`: stays pending past any deadline; `fails`: a start falls back to Stopped. */
  behaviour?: Behaviour;
}

/** One recorded host call. */
export interface FakeCall {
  method: keyof SystemHost;
  name?: string;
  wait?: HostWait;
}

/** A PowerShellError shaped like the real one for an error id such as `NoServiceFoundForGivenName,...`. */
export function powerShellError(errorId: string, message = "failed"): PowerShellError {
  return new PowerShellError(message, {
    code: "COMMAND_FAILED",
    scriptName: "fake",
    mode: "session",
    durationMs: 1,
    record: {
      message,
      fullyQualifiedErrorId: errorId,
      category: "NotSpecified",
      reason: "ServiceCommandException",
      targetName: "",
      targetType: "",
      exceptionType: "Microsoft.PowerShell.Commands.ServiceCommandException",
      exceptionChain: [],
      hResult: 0,
      nativeErrorCode: null,
      statusCode: null,
      messageId: null,
      errorDetails: null,
      scriptStackTrace: "",
    },
  });
}

const stopped = 1;
const startPending = 2;
const stopPending = 3;
const running = 4;
const continuePending = 5;
const pausePending = 6;
const paused = 7;
const disabled = 4;

/**
 * An in-memory SystemHost that behaves as the scripts do (windows-cmdlets.md §6): errors carry
 * the real error ids, a start or stop settles at once unless the service is `stuck`. It records
 * every call; `hook` runs inside each one (to hold calls open in lock tests).
 */
export class FakeSystemHost implements SystemHost {
  readonly calls: FakeCall[] = [];
  readonly services = new Map<string, FakeService>();
  biosSerial: string | null = "  VMware-42 00 a6 a6  \r\n";
  hook: ((call: FakeCall) => Promise<void>) | undefined;
  /** Errors the next call of a method rejects with (once per entry). */
  readonly failures = new Map<keyof SystemHost, unknown[]>();

  constructor(services: FakeService[] = []) {
    for (const service of services) this.services.set(service.name.toLowerCase(), service);
  }

  fail(method: keyof SystemHost, error: unknown): void {
    this.failures.set(method, [...(this.failures.get(method) ?? []), error]);
  }

  /** Calls as `method name` strings, e.g. `stopService B`. */
  log(): string[] {
    return this.calls.map((c) => (c.name === undefined ? c.method : `${c.method} ${c.name}`));
  }

  private async enter(call: FakeCall): Promise<void> {
    this.calls.push(call);
    await this.hook?.(call);
    const queued = this.failures.get(call.method);
    if (queued !== undefined && queued.length > 0) throw queued.shift();
  }

  private find(name: string, command: string): FakeService {
    const service = this.services.get(name.toLowerCase());
    if (service === undefined) {
      throw powerShellError(
        `NoServiceFoundForGivenName,Microsoft.PowerShell.Commands.${command}`,
        `Cannot find any service with service name '${name}'.`,
      );
    }
    return service;
  }

  async getBiosSerialNumber(): Promise<string | null> {
    await this.enter({ method: "getBiosSerialNumber" });
    return this.biosSerial;
  }

  async getService(name: string): Promise<HostService> {
    await this.enter({ method: "getService", name });
    const { displayName, status, startType } = this.find(name, "GetServiceCommand");
    return { name: this.find(name, "GetServiceCommand").name, displayName, status, startType };
  }

  async getDependencies(name: string): Promise<HostDependencies> {
    await this.enter({ method: "getDependencies", name });
    const root = this.find(name, "GetServiceCommand");
    const edges: HostDependentEdge[] = [];
    const seen = new Set<string>();
    const queue = [root];
    for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
      if (seen.has(current.name.toLowerCase())) continue;
      seen.add(current.name.toLowerCase());
      for (const dependentName of current.dependents) {
        const dependent = this.find(dependentName, "GetServiceCommand");
        edges.push({ parent: current.name, name: dependent.name, status: dependent.status });
        queue.push(dependent);
      }
    }
    return { name: root.name, status: root.status, dependents: edges };
  }

  async startService(name: string, wait: HostWait): Promise<HostServiceWait> {
    await this.enter({ method: "startService", name, wait });
    const service = this.find(name, "GetServiceCommand");
    const result = (requested: boolean, timedOut: boolean): HostServiceWait => ({
      status: service.status ?? 0,
      startType: service.startType,
      requested,
      timedOut,
    });
    if (service.status === running || service.status === paused) return result(false, false);
    if (service.status === stopped && service.startType === disabled) return result(false, false);
    const requested = service.status === stopped || service.status === stopPending;
    if (service.behaviour === "stuck") {
      if (requested) service.status = startPending;
      return result(requested, true);
    }
    if (service.behaviour === "fails" && requested) return result(true, false);
    service.status = service.status === pausePending ? paused : running;
    return result(requested, false);
  }

  async stopService(name: string, wait: HostWait): Promise<HostServiceWait> {
    await this.enter({ method: "stopService", name, wait });
    const service = this.find(name, "GetServiceCommand");
    const result = (requested: boolean, timedOut: boolean): HostServiceWait => ({
      status: service.status ?? 0,
      startType: service.startType,
      requested,
      timedOut,
    });
    if (service.status === stopped) return result(false, false);
    const requested = service.status === running || service.status === paused;
    if (
      requested &&
      service.dependents.some((d) => this.find(d, "StopServiceCommand").status !== stopped)
    ) {
      throw powerShellError(
        "ServiceHasDependentServices,Microsoft.PowerShell.Commands.StopServiceCommand",
        `Cannot stop service '${service.displayName} (${service.name})' because it has dependent services. It can only be stopped if the Force flag is set.`,
      );
    }
    if (service.behaviour === "stuck") {
      if (requested) service.status = stopPending;
      return result(requested, true);
    }
    service.status = stopped;
    return result(requested, false);
  }
}

/** Shorthand for a service in the model. */
export function service(
  name: string,
  status: number | null,
  extra: Partial<FakeService> = {},
): FakeService {
  return { name, displayName: `${name} service`, status, startType: 3, dependents: [], ...extra };
}

export const codes = {
  stopped,
  startPending,
  stopPending,
  running,
  continuePending,
  pausePending,
  paused,
  disabled,
};
