import { bindHost, createKeyedLock, type HostBinding, type HostOptions } from "@csi-proxy/exec";
import { dependentsDeepestFirst } from "./dependents.js";
import {
  ServiceStatus,
  serviceStatusName,
  startTypeName,
  StartType,
  toServiceStatus,
  toStartType,
} from "./enums.js";
import {
  mapServiceError,
  operationFailed,
  ServiceNotFoundError,
  ServiceStateError,
  ServiceTimeoutError,
} from "./errors.js";
import { createPowerShellSystemHost, type HostServiceWait, type SystemHost } from "./host.js";
import type {
  EmptyResponse,
  GetBiosSerialNumberRequest,
  GetBiosSerialNumberResponse,
  GetServiceRequest,
  GetServiceResponse,
  StartServiceRequest,
  StopServiceRequest,
} from "./types.js";
import {
  checkServiceName,
  optionalBoolean,
  requestObject,
  serviceName,
  timeoutField,
} from "./validate.js";

/** Upstream's wait for a service to start or stop: 30 s. */
export const defaultServiceTimeoutMs = 30_000;
/** Upstream's pause between two looks at a waiting service: 200 ms. */
export const servicePollMs = 200;

// One lock table per process, so two System instances cannot interleave changes to one service.
const serviceLocks = createKeyedLock();

/** Options of {@link System}: give a `host`, or a `shell` to run the default PowerShell host on. */
export type SystemOptions = HostOptions<SystemHost>;

/**
 * The system API group: the BIOS serial number and Windows service control, as upstream CSI
 * Proxy's system group. Every method takes one request object and resolves with one response
 * object; failures are `CsiProxyError`s whose `code` callers branch on.
 *
 * @example
 * ```ts
 * import { System, ServiceStatus } from "@csi-proxy/system";
 *
 * const system = new System();
 * const { serialNumber } = await system.getBiosSerialNumber();
 * const iscsi = await system.getService({ name: "MSiSCSI" });
 * if (iscsi.status !== ServiceStatus.RUNNING) await system.startService({ name: "MSiSCSI" });
 * await system.stopService({ name: "MSiSCSI", force: true, timeoutMs: 60_000 });
 * await system.close();
 * ```
 */
export class System {
  readonly #binding: HostBinding<SystemHost>;

  constructor(options: SystemOptions = {}) {
    this.#binding = bindHost("System", options, createPowerShellSystemHost);
  }

  get #host(): SystemHost {
    return this.#binding.host;
  }

  /**
   * The BIOS serial number (`Win32_BIOS.SerialNumber` through `Get-CimInstance`), trimmed of the
   * padding firmware adds; `""` when the BIOS reports none.
   */
  async getBiosSerialNumber(
    request: GetBiosSerialNumberRequest = {},
  ): Promise<GetBiosSerialNumberResponse> {
    requestObject(request, "getBiosSerialNumber");
    const serial = await this.#call("getBiosSerialNumber", "", () =>
      this.#host.getBiosSerialNumber(),
    );
    return { serialNumber: (serial ?? "").trim() };
  }

  /**
   * A service's display name, status and start type, numbered as upstream's enums and named.
   * `NOT_FOUND` when no service has that name.
   */
  async getService(request: GetServiceRequest): Promise<GetServiceResponse> {
    const name = serviceName(request, "getService");
    const service = await this.#call(`getService(${name})`, name, () =>
      this.#host.getService(name),
    );
    const status = toServiceStatus(service.status);
    const startType = toStartType(service.startType);
    return {
      displayName: service.displayName,
      status,
      statusName: serviceStatusName(status),
      startType,
      startTypeName: startTypeName(startType),
    };
  }

  /**
   * Starts the service and waits until it runs (at most `timeoutMs`, default 30 s). A running
   * service succeeds at once; a pending start is waited for. `FAILED_PRECONDITION` when the
   * service is disabled or paused, `TIMEOUT` when it is still pending at the deadline.
   */
  async startService(request: StartServiceRequest): Promise<EmptyResponse> {
    const name = serviceName(request, "startService");
    const timeoutMs = timeoutField(request, "startService", defaultServiceTimeoutMs);
    await this.#locked(`startService(${name})`, name, async () => {
      const result = await this.#host.startService(name, { timeoutMs, pollMs: servicePollMs });
      checkStarted(name, result, timeoutMs);
    });
    return {};
  }

  /**
   * Stops the service and waits until it is stopped; a stopped service succeeds at once. With
   * `force`, the services that depend on it (directly or not) and are not stopped are stopped
   * first, deepest first; without it, running dependents fail the call with
   * `FAILED_PRECONDITION`. `timeoutMs` (default 30 s, counted once no other start or stop of the
   * service is running here) bounds the whole call, dependents included; `TIMEOUT` when a service
   * is still not stopped at the deadline.
   */
  async stopService(request: StopServiceRequest): Promise<EmptyResponse> {
    const name = serviceName(request, "stopService");
    const force = optionalBoolean(request, "force", "stopService");
    const timeoutMs = timeoutField(request, "stopService", defaultServiceTimeoutMs);
    await this.#locked(`stopService(${name})`, name, async () => {
      // The budget starts once the service is ours, as a start's does.
      const deadline = Date.now() + timeoutMs;
      if (force && (await this.#stopDependents(name, deadline, timeoutMs)) === "stopped") return;
      await this.#stopOne(name, deadline, timeoutMs);
    });
    return {};
  }

  /** Closes the PowerShell this instance created itself; a shell or host given to it is left open. */
  async close(): Promise<void> {
    await this.#binding.close();
  }

  /** Stops what depends on `name`, deepest first; "stopped" when nothing, `name` included, ran. */
  async #stopDependents(
    name: string,
    deadline: number,
    timeoutMs: number,
  ): Promise<"stopped" | "stopping"> {
    const graph = await this.#host.getDependencies(name);
    const order = dependentsDeepestFirst(graph);
    if (order.length === 0 && graph.status === ServiceStatus.STOPPED) return "stopped";
    for (const dependent of order) {
      // Names come from Windows, not the caller, but reach Get-Service -Name all the same.
      checkServiceName(dependent, `stopService(${name}) dependent`);
      try {
        await this.#stopOne(dependent, deadline, timeoutMs);
      } catch (error) {
        const mapped = mapServiceError(dependent, error);
        // A dependent deleted since the walk is as good as stopped.
        if (mapped instanceof ServiceNotFoundError) continue;
        throw mapped;
      }
    }
    return "stopping";
  }

  async #stopOne(name: string, deadline: number, timeoutMs: number): Promise<void> {
    const remaining = deadline - Date.now();
    if (remaining < 1) {
      const last = (await this.#host.getService(name)).status;
      throw new ServiceTimeoutError({
        serviceName: name,
        expected: ServiceStatus.STOPPED,
        lastStatus: toServiceStatus(last),
        timeoutMs,
      });
    }
    const result = await this.#host.stopService(name, {
      timeoutMs: remaining,
      pollMs: servicePollMs,
    });
    checkReached(name, result, ServiceStatus.STOPPED, timeoutMs);
  }

  async #call<T>(operation: string, name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw operationFailed(operation, mapServiceError(name, error));
    }
  }

  async #locked(operation: string, name: string, work: () => Promise<void>): Promise<void> {
    // Windows compares service names case-insensitively, so the lock does too.
    const key = `service:${name.toLowerCase()}`;
    await this.#call(operation, name, () => serviceLocks.run(key, work));
  }
}

function checkStarted(name: string, result: HostServiceWait, timeoutMs: number): void {
  const status = toServiceStatus(result.status);
  if (status === ServiceStatus.RUNNING) return;
  if (result.timedOut) {
    throw new ServiceTimeoutError({
      serviceName: name,
      expected: ServiceStatus.RUNNING,
      lastStatus: status,
      timeoutMs,
    });
  }
  if (status === ServiceStatus.PAUSED) {
    throw new ServiceStateError(
      name,
      status,
      "is paused; starting does not resume it.",
      "FAILED_PRECONDITION",
    );
  }
  if (status === ServiceStatus.STOPPED && result.requested) {
    throw new ServiceStateError(
      name,
      status,
      "stopped again right after it was started; see the System event log for why.",
      "COMMAND_FAILED",
    );
  }
  if (status === ServiceStatus.STOPPED && toStartType(result.startType) === StartType.DISABLED) {
    throw new ServiceStateError(
      name,
      status,
      "is disabled and cannot be started.",
      "FAILED_PRECONDITION",
    );
  }
  checkReached(name, result, ServiceStatus.RUNNING, timeoutMs);
}

/** Throws unless the host reached `expected`: TIMEOUT when it ran out of time. */
function checkReached(
  name: string,
  result: HostServiceWait,
  expected: ServiceStatus,
  timeoutMs: number,
): void {
  const status = toServiceStatus(result.status);
  if (status === expected) return;
  if (result.timedOut) {
    throw new ServiceTimeoutError({ serviceName: name, expected, lastStatus: status, timeoutMs });
  }
  throw new ServiceStateError(
    name,
    status,
    `is ${serviceStatusName(status)}, not ${serviceStatusName(expected)}, and the host stopped waiting.`,
    "COMMAND_FAILED",
  );
}
