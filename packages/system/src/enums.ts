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
  UNKNOWN: 0,
  STOPPED: 1,
  START_PENDING: 2,
  STOP_PENDING: 3,
  RUNNING: 4,
  CONTINUE_PENDING: 5,
  PAUSE_PENDING: 6,
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
  BOOT: 0,
  SYSTEM: 1,
  AUTOMATIC: 2,
  MANUAL: 3,
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
