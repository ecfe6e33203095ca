import {
  brandedGuard,
  CsiProxyError,
  failureReason,
  isCsiProxyError,
  type PowerShellErrorRecord,
} from "@csi-proxy/exec";
import { serviceStatusName, type ServiceStatus, type ServiceStatusName } from "./enums.js";

function named(error: { prototype: object }, name: string): void {
  Object.defineProperty(error.prototype, "name", {
    value: name,
    writable: true,
    configurable: true,
  });
}

/**
 * No service has that name (Get-Service, Start-Service or Stop-Service said
 * `NoServiceFoundForGivenName`). Branch on `error.code === "NOT_FOUND"`.
 */
export class ServiceNotFoundError extends CsiProxyError {
  /** The name that was asked for. */
  readonly serviceName: string;

  constructor(serviceName: string, options: { cause?: unknown } = {}) {
    super(`Service ${JSON.stringify(serviceName)} was not found.`, {
      code: "NOT_FOUND",
      cause: options.cause,
    });
    this.serviceName = serviceName;
  }
}
named(ServiceNotFoundError, "ServiceNotFoundError");

const serviceNotFoundErrorGuard = brandedGuard(
  ServiceNotFoundError,
  "csi-proxy.system.ServiceNotFoundError",
);

/**
 * Whether `value` is a {@link ServiceNotFoundError}, from any installed copy of this
 * package (unlike `instanceof`).
 */
export function isServiceNotFoundError(value: unknown): value is ServiceNotFoundError {
  return serviceNotFoundErrorGuard(value);
}

/**
 * The service cannot be stopped while services that depend on it run (Stop-Service said
 * `ServiceHasDependentServices`); pass `force: true` to stop them first. Code `FAILED_PRECONDITION`.
 */
export class ServiceHasDependentsError extends CsiProxyError {
  /** The service that was to be stopped. */
  readonly serviceName: string;

  constructor(serviceName: string, options: { cause?: unknown } = {}) {
    super(
      `Service ${JSON.stringify(serviceName)} has dependent services that are running; stop them first or pass force: true.`,
      { code: "FAILED_PRECONDITION", cause: options.cause },
    );
    this.serviceName = serviceName;
  }
}
named(ServiceHasDependentsError, "ServiceHasDependentsError");

const serviceHasDependentsErrorGuard = brandedGuard(
  ServiceHasDependentsError,
  "csi-proxy.system.ServiceHasDependentsError",
);

/**
 * Whether `value` is a {@link ServiceHasDependentsError}, from any installed copy of this
 * package (unlike `instanceof`).
 */
export function isServiceHasDependentsError(value: unknown): value is ServiceHasDependentsError {
  return serviceHasDependentsErrorGuard(value);
}

/** What {@link ServiceTimeoutError} reports. */
export interface ServiceTimeoutDetails {
  /** The service waited for. */
  readonly serviceName: string;
  /** The status that was waited for. */
  readonly expected: ServiceStatus;
  /** The last status seen. */
  readonly lastStatus: ServiceStatus;
  /** The deadline that passed, in milliseconds. */
  readonly timeoutMs: number;
}

/** The service did not reach the state waited for in time (e.g. stuck in a pending state). Code `TIMEOUT`. */
export class ServiceTimeoutError extends CsiProxyError {
  /** The service waited for. */
  readonly serviceName: string;
  /** The status that was waited for. */
  readonly expected: ServiceStatusName;
  /** The last status seen, e.g. `STOP_PENDING`. */
  readonly lastStatus: ServiceStatusName;
  /** The deadline that passed, in milliseconds. */
  readonly timeoutMs: number;

  constructor(details: ServiceTimeoutDetails) {
    const expected = serviceStatusName(details.expected);
    const last = serviceStatusName(details.lastStatus);
    super(
      `Service ${JSON.stringify(details.serviceName)} did not become ${expected} within ${details.timeoutMs} ms; its status is still ${last}.`,
      { code: "TIMEOUT" },
    );
    this.serviceName = details.serviceName;
    this.expected = expected;
    this.lastStatus = last;
    this.timeoutMs = details.timeoutMs;
  }
}
named(ServiceTimeoutError, "ServiceTimeoutError");

const serviceTimeoutErrorGuard = brandedGuard(
  ServiceTimeoutError,
  "csi-proxy.system.ServiceTimeoutError",
);

/**
 * Whether `value` is a {@link ServiceTimeoutError} (with `expected`, `lastStatus` and
 * `timeoutMs`), from any installed copy of this package (unlike `instanceof`).
 */
export function isServiceTimeoutError(value: unknown): value is ServiceTimeoutError {
  return serviceTimeoutErrorGuard(value);
}

/**
 * The service is in a state the operation cannot leave: disabled or paused when starting
 * (`FAILED_PRECONDITION`), or stopped again right after it was started (`COMMAND_FAILED`).
 */
export class ServiceStateError extends CsiProxyError {
  /** The service the operation was on. */
  readonly serviceName: string;
  /** The status the service was left in. */
  readonly status: ServiceStatusName;

  constructor(
    serviceName: string,
    status: ServiceStatus,
    reason: string,
    code: "FAILED_PRECONDITION" | "COMMAND_FAILED",
  ) {
    super(`Service ${JSON.stringify(serviceName)} ${reason}`, { code });
    this.serviceName = serviceName;
    this.status = serviceStatusName(status);
  }
}
named(ServiceStateError, "ServiceStateError");

const serviceStateErrorGuard = brandedGuard(
  ServiceStateError,
  "csi-proxy.system.ServiceStateError",
);

/**
 * Whether `value` is a {@link ServiceStateError} (with the `status` the service was left in),
 * from any installed copy of this package (unlike `instanceof`).
 */
export function isServiceStateError(value: unknown): value is ServiceStateError {
  return serviceStateErrorGuard(value);
}

/** The head of a failure's FullyQualifiedErrorId (before the comma), read structurally across installs. */
function errorIdHead(error: unknown): string | undefined {
  if (!isCsiProxyError(error)) return undefined;
  const id = (error as { record?: PowerShellErrorRecord }).record?.fullyQualifiedErrorId;
  return id?.split(",")[0]?.trim();
}

/**
 * Turns the service cmdlets' errors into typed errors by their (unlocalised) error id:
 * `NoServiceFoundForGivenName` → {@link ServiceNotFoundError}, `ServiceHasDependentServices` →
 * {@link ServiceHasDependentsError}. Anything else is returned unchanged.
 */
export function mapServiceError(serviceName: string, error: unknown): unknown {
  const head = errorIdHead(error);
  if (head === "NoServiceFoundForGivenName")
    return new ServiceNotFoundError(serviceName, { cause: error });
  if (head === "ServiceHasDependentServices")
    return new ServiceHasDependentsError(serviceName, { cause: error });
  return error;
}

/**
 * Names the operation in a failure's message while keeping its code; the original error stays
 * reachable as `cause`. Typed errors of this group already say what went wrong and pass unchanged.
 */
export function operationFailed(operation: string, error: unknown): CsiProxyError {
  if (
    isServiceNotFoundError(error) ||
    isServiceHasDependentsError(error) ||
    isServiceTimeoutError(error) ||
    isServiceStateError(error) ||
    (isCsiProxyError(error) && error.code === "INVALID_ARGUMENT")
  ) {
    return error;
  }
  const code = isCsiProxyError(error) ? error.code : "COMMAND_FAILED";
  const reason = failureReason(error);
  return new CsiProxyError(`${operation} failed: ${reason}`, { code, cause: error });
}
