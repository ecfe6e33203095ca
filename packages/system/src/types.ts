import type { ServiceStatus, ServiceStatusName, StartType, StartTypeName } from "./enums.js";

/** Request of {@link System.getBiosSerialNumber}: nothing (an empty object, or omitted). */
export type GetBiosSerialNumberRequest = Record<string, never>;

/** Response of {@link System.getBiosSerialNumber}. */
export interface GetBiosSerialNumberResponse {
  /** `Win32_BIOS.SerialNumber`, trimmed of the padding firmware adds; `""` when the BIOS has none. */
  readonly serialNumber: string;
}

/** Request of {@link System.getService}. */
export interface GetServiceRequest {
  /** The service's key name (`MSiSCSI`), as under `HKLM\System\CurrentControlSet\Services`. */
  readonly name: string;
}

/** Response of {@link System.getService}. */
export interface GetServiceResponse {
  /** The service's display name. */
  readonly displayName: string;
  /** Upstream's numeric status; `UNKNOWN` (0) when Windows reports a value outside 1–7. */
  readonly status: ServiceStatus;
  /** The name of `status`, e.g. `"RUNNING"`. */
  readonly statusName: ServiceStatusName;
  /** Upstream's numeric start type; `null` when Windows reports no value or one outside 0–4. */
  readonly startType: StartType | null;
  /** The name of `startType`, e.g. `"AUTOMATIC"`; `"UNKNOWN"` when `startType` is null. */
  readonly startTypeName: StartTypeName;
}

/** Request of {@link System.startService}. */
export interface StartServiceRequest {
  /** The service's key name. */
  readonly name: string;
  /** How long to wait for `RUNNING`, in milliseconds. Default 30000. */
  readonly timeoutMs?: number;
}

/** Request of {@link System.stopService}. */
export interface StopServiceRequest {
  /** The service's key name. */
  readonly name: string;
  /** Stop the services that depend on this one first, deepest first. Default false. */
  readonly force?: boolean;
  /** How long the whole call (dependents included) may wait, in milliseconds. Default 30000. */
  readonly timeoutMs?: number;
}

/** The empty response of the start and stop methods, shared by every group. */
export type { EmptyResponse } from "@csi-proxy/exec";
