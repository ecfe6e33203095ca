import {
  bindHost,
  createKeyedLock,
  CsiProxyError,
  withCallContext,
  type CallContext,
  type CallOptions,
  type HostBinding,
  type HostOptions,
} from "@csi-proxy/exec";
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
import {
  createPowerShellSystemHost,
  type HostServiceWait,
  type HostWait,
  type SystemHost,
} from "./host.js";
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
/**
 * Kept back from a method's deadline (`options.timeoutMs`) when a start or stop script is given
 * its own wait: time for the process to start the script and report its last look, so the
 * script ends with the service's status rather than being killed mid-wait.
 */
export const serviceReportMarginMs = 2_000;

// One lock table per process, so two System instances cannot interleave changes to one service.
const serviceLocks = createKeyedLock();

/** Options of {@link System}: give a `host`, or a `shell` to run the default PowerShell host on. */
export type SystemOptions = HostOptions<SystemHost>;

/**
 * The system API group: the BIOS serial number and Windows service control, as upstream CSI
 * Proxy's system group. Every method takes one request object and resolves with one response
 * object; failures are `CsiProxyError`s whose `code` callers branch on. Every method also takes
 * `{ signal?, timeoutMs? }` as a second argument: the caller's cancellation and a deadline for
 * the whole call (`ABORTED`/`TIMEOUT`).
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
   * Cancelled: a read, nothing changed; retry freely.
   */
  async getBiosSerialNumber(
    request: GetBiosSerialNumberRequest = {},
    options?: CallOptions,
  ): Promise<GetBiosSerialNumberResponse> {
    requestObject(request, "getBiosSerialNumber");
    return withCallContext("getBiosSerialNumber", options, async (context) => {
      const serial = await this.#call(context, "getBiosSerialNumber", "", () =>
        this.#host.getBiosSerialNumber(context),
      );
      return { serialNumber: (serial ?? "").trim() };
    });
  }

  /**
   * A service's display name, status and start type, numbered as upstream's enums and named.
   * `NOT_FOUND` when no service has that name.
   * Cancelled: a read, nothing changed; retry freely.
   */
  async getService(request: GetServiceRequest, options?: CallOptions): Promise<GetServiceResponse> {
    const name = serviceName(request, "getService");
    return withCallContext("getService", options, async (context) => {
      const service = await this.#call(context, `getService(${name})`, name, () =>
        this.#host.getService(name, context),
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
    });
  }

  /**
   * Starts the service and waits until it runs (at most `timeoutMs`, default 30 s). A running
   * service succeeds at once; a pending start is waited for. `FAILED_PRECONDITION` when the
   * service is disabled or paused, `TIMEOUT` when it is still pending at the deadline. With
   * `options.timeoutMs`, the script stops waiting 2 s before that deadline to report the status.
   * Cancelled: the start may already have been asked for, and Windows carries it on; a retry
   * waits for a pending start and asks only a stopped service, so it is safe.
   */
  async startService(request: StartServiceRequest, options?: CallOptions): Promise<EmptyResponse> {
    const name = serviceName(request, "startService");
    const timeoutMs = timeoutField(request, "startService", defaultServiceTimeoutMs);
    return withCallContext("startService", options, async (context) => {
      await this.#locked(context, `startService(${name})`, name, async () => {
        const wait = scriptWait(context, timeoutMs);
        if (wait === undefined) return this.#alreadyThere(context, name, ServiceStatus.RUNNING);
        const result = await this.#host.startService(name, wait, context);
        checkStarted(name, result, reportedTimeout(wait, timeoutMs, timeoutMs));
      });
      return {};
    });
  }

  /**
   * Stops the service and waits until it is stopped; a stopped service succeeds at once. With
   * `force`, the services that depend on it (directly or not) and are not stopped are stopped
   * first, deepest first; without it, running dependents fail the call with
   * `FAILED_PRECONDITION`. `timeoutMs` (default 30 s, counted once no other start or stop of the
   * service is running here) bounds the whole call, dependents included; `TIMEOUT` when a service
   * is still not stopped at the deadline.
   * Cancelled: with `force`, some dependents may already be stopped or stopping, and the service
   * itself may be stopping; a retry reads the dependents again, skips the stopped ones, waits out
   * the pending ones and stops the rest, so it ends where an uncancelled call would.
   */
  async stopService(request: StopServiceRequest, options?: CallOptions): Promise<EmptyResponse> {
    const name = serviceName(request, "stopService");
    const force = optionalBoolean(request, "force", "stopService");
    const timeoutMs = timeoutField(request, "stopService", defaultServiceTimeoutMs);
    return withCallContext("stopService", options, async (context) => {
      await this.#locked(context, `stopService(${name})`, name, async () => {
        // The budget starts once the service is ours, as a start's does.
        const deadline = Date.now() + timeoutMs;
        const stop = (service: string) => this.#stopOne(context, service, deadline, timeoutMs);
        if (force && (await this.#stopDependents(context, name, stop)) === "stopped") return;
        await stop(name);
      });
      return {};
    });
  }

  /** Closes the PowerShell this instance created itself; a shell or host given to it is left open. */
  async close(): Promise<void> {
    await this.#binding.close();
  }

  /** Stops what depends on `name`, deepest first; "stopped" when nothing, `name` included, ran. */
  async #stopDependents(
    context: CallContext,
    name: string,
    stop: (service: string) => Promise<void>,
  ): Promise<"stopped" | "stopping"> {
    const graph = await this.#host.getDependencies(name, context);
    const order = dependentsDeepestFirst(graph);
    if (order.length === 0 && graph.status === ServiceStatus.STOPPED) return "stopped";
    for (const dependent of order) {
      // Names come from Windows, not the caller, but reach Get-Service -Name all the same.
      checkServiceName(dependent, `stopService(${name}) dependent`);
      try {
        await stop(dependent);
      } catch (error) {
        const mapped = mapServiceError(dependent, error);
        // A dependent deleted since the walk is as good as stopped.
        if (mapped instanceof ServiceNotFoundError) continue;
        throw mapped;
      }
    }
    return "stopping";
  }

  async #stopOne(
    context: CallContext,
    name: string,
    deadline: number,
    timeoutMs: number,
  ): Promise<void> {
    const remaining = deadline - Date.now();
    if (remaining < 1) {
      const last = (await this.#host.getService(name, context)).status;
      throw new ServiceTimeoutError({
        serviceName: name,
        expected: ServiceStatus.STOPPED,
        lastStatus: toServiceStatus(last),
        timeoutMs,
      });
    }
    const wait = scriptWait(context, remaining);
    if (wait === undefined) return this.#alreadyThere(context, name, ServiceStatus.STOPPED);
    const result = await this.#host.stopService(name, wait, context);
    checkReached(name, result, ServiceStatus.STOPPED, reportedTimeout(wait, remaining, timeoutMs));
  }

  /**
   * With too little of the deadline left to wait, a service already where it was asked to be
   * is success (there is nothing to wait for); anything else is `TIMEOUT`, nothing asked of it.
   */
  async #alreadyThere(context: CallContext, name: string, expected: ServiceStatus): Promise<void> {
    const status = toServiceStatus((await this.#host.getService(name, context)).status);
    if (status === expected) return;
    throw new CsiProxyError(
      `only ${context.remainingMs() ?? 0} ms of the call's deadline were left, too little to wait ` +
        `for service ${name} (at least ${serviceReportMarginMs + servicePollMs} ms); nothing was asked of it.`,
      { code: "TIMEOUT" },
    );
  }

  async #call<T>(
    context: CallContext,
    operation: string,
    name: string,
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await work();
    } catch (error) {
      // The call's own ABORTED/TIMEOUT already names the method.
      if (error === context.signal.reason) throw error;
      throw operationFailed(operation, mapServiceError(name, error));
    }
  }

  async #locked(
    context: CallContext,
    operation: string,
    name: string,
    work: () => Promise<void>,
  ): Promise<void> {
    // Windows compares service names case-insensitively, so the lock does too.
    const key = `service:${name.toLowerCase()}`;
    await this.#call(context, operation, name, () => serviceLocks.run(key, work, context.signal));
  }
}

/**
 * The wait a start or stop script gets: what is left of the request's `timeoutMs`, cut so the
 * script reports before the method's deadline; `undefined` when the deadline leaves less than
 * one poll after the report margin, too little to start and wait.
 */
function scriptWait(context: CallContext, requestLeftMs: number): HostWait | undefined {
  context.throwIfDone();
  const callLeftMs = context.remainingMs();
  if (callLeftMs === undefined) return { timeoutMs: requestLeftMs, pollMs: servicePollMs };
  const waitMs = callLeftMs - serviceReportMarginMs;
  if (waitMs < servicePollMs) return undefined;
  return { timeoutMs: Math.min(requestLeftMs, waitMs), pollMs: servicePollMs };
}

/** The deadline a timed-out wait reports: the request's, or the shorter wait the call's deadline left. */
function reportedTimeout(wait: HostWait, requestLeftMs: number, requestTimeoutMs: number): number {
  return wait.timeoutMs < requestLeftMs ? wait.timeoutMs : requestTimeoutMs;
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
