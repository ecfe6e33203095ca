/**
 * The state of a service: upstream's `ServiceStatus` (Go `SERVICE_STATUS_*`), numbered like
 * .NET's `ServiceControllerStatus` (1–7) plus `UNKNOWN` (0).
 *
 * @example
 * ```ts
 * const { status } = await system.getService({ name: "MSiSCSI" });
 * if (status === ServiceStatus.RUNNING) { ... }
 * ```
 */
export const ServiceStatus = Object.freeze({
  /** No status, or one this library does not know. */
  UNKNOWN: 0,
  /** Not running. */
  STOPPED: 1,
  /** Starting. */
  START_PENDING: 2,
  /** Stopping. */
  STOP_PENDING: 3,
  /** Running. */
  RUNNING: 4,
  /** Resuming from pause. */
  CONTINUE_PENDING: 5,
  /** Pausing. */
  PAUSE_PENDING: 6,
  /** Paused. */
  PAUSED: 7,
} as const);

/** A {@link ServiceStatus} value (0–7). */
export type ServiceStatus = (typeof ServiceStatus)[keyof typeof ServiceStatus];

/** A {@link ServiceStatus} name, e.g. `"RUNNING"`. */
export type ServiceStatusName = keyof typeof ServiceStatus;

/**
 * How a service starts: upstream's `StartType` (Go `START_TYPE_*`), numbered like .NET's
 * `ServiceStartMode` (0–4).
 */
export const StartType = Object.freeze({
  /** Loaded by the boot loader (drivers). */
  BOOT: 0,
  /** Started during kernel initialisation (drivers). */
  SYSTEM: 1,
  /** Started at boot by the service control manager. */
  AUTOMATIC: 2,
  /** Started on request. */
  MANUAL: 3,
  /** Cannot be started. */
  DISABLED: 4,
} as const);

/** A {@link StartType} value (0–4). */
export type StartType = (typeof StartType)[keyof typeof StartType];

/** A {@link StartType} name, or `"UNKNOWN"` when the host reported no value this library knows. */
export type StartTypeName = keyof typeof StartType | "UNKNOWN";

const statusNames = Object.keys(ServiceStatus) as ServiceStatusName[];
const startTypeNames = Object.keys(StartType) as (keyof typeof StartType)[];

/** A host status code as a {@link ServiceStatus}: anything outside 0–7 (or missing) is `UNKNOWN`. */
export function toServiceStatus(code: number | null): ServiceStatus {
  const name = statusNames.find((n) => ServiceStatus[n] === code);
  return name === undefined ? ServiceStatus.UNKNOWN : ServiceStatus[name];
}

/** The name of a {@link ServiceStatus}. */
export function serviceStatusName(status: ServiceStatus): ServiceStatusName {
  return statusNames.find((n) => ServiceStatus[n] === status) ?? "UNKNOWN";
}

/**
 * A host start-mode code as a {@link StartType}, or `null` when it is missing or outside 0–4.
 * Upstream's WMI code turned unknown values into 0, which reads as `BOOT`; null cannot be misread.
 */
export function toStartType(code: number | null): StartType | null {
  const name = startTypeNames.find((n) => StartType[n] === code);
  return name === undefined ? null : StartType[name];
}

/** The name of a {@link StartType}, `"UNKNOWN"` for null. */
export function startTypeName(startType: StartType | null): StartTypeName {
  return startTypeNames.find((n) => StartType[n] === startType) ?? "UNKNOWN";
}
