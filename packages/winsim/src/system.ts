// System: the BIOS (Win32_BIOS) and services with dependencies and timed state changes.
// The scenario spec a test writes, and the state the PowerShell side reads and updates.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** .NET `ServiceControllerStatus` codes by name. */
export const serviceStatuses = {
  /** The service is not running. */
  Stopped: 1,
  /** The service is starting. */
  StartPending: 2,
  /** The service is stopping. */
  StopPending: 3,
  /** The service is running. */
  Running: 4,
  /** The service is resuming from a pause. */
  ContinuePending: 5,
  /** The service is pausing. */
  PausePending: 6,
  /** The service is paused. */
  Paused: 7,
} as const;

/** A service status by name (`Running`, `StartPending`, ...), the keys of `serviceStatuses`. */
export type ServiceStatusName = keyof typeof serviceStatuses;

/** .NET `ServiceStartMode` codes by name. */
export const startModes = {
  /** A device driver the system loader starts (device drivers only). */
  Boot: 0,
  /** A device driver started during kernel initialisation (device drivers only). */
  System: 1,
  /** Started by the operating system at system start-up. */
  Automatic: 2,
  /** Started only when a user or an application starts it. */
  Manual: 3,
  /** Disabled: it cannot be started. */
  Disabled: 4,
} as const;

/** A service start mode by name (`Automatic`, `Manual`, ...), the keys of `startModes`. */
export type StartModeName = keyof typeof startModes;

/** Win32_BIOS; `serialNumber` may be padded with spaces or null, as firmware reports it. */
export interface BiosSpec {
  /** Win32_BIOS.SerialNumber; null for none. Default: the default BIOS's. */
  serialNumber?: string | null;
  /** Win32_BIOS.Manufacturer. Default: the default BIOS's. */
  manufacturer?: string;
  /** Win32_BIOS.Name. Default: the default BIOS's. */
  name?: string;
  /** Win32_BIOS.Version. Default: the default BIOS's. */
  version?: string;
  /** Win32_BIOS.SMBIOSBIOSVersion. Default: the default BIOS's. */
  smbiosBiosVersion?: string;
  /** ISO date. */
  releaseDate?: string | null;
}

/** One service. Statuses and start types by name or raw code. */
export interface ServiceSpec {
  /** The key name (`MSiSCSI`). */
  name: string;
  /** Default: the name. */
  displayName?: string;
  /** Default "Stopped". A pending status stays pending (a stuck service) until something changes it. */
  status?: ServiceStatusName | number;
  /** Default "Manual". */
  startType?: StartModeName | number;
  /** ServiceType flags. Default 16 (Win32OwnProcess). */
  serviceType?: number;
  /** Key names of the services this one depends on (its ServicesDependedOn). */
  dependsOn?: readonly string[];
  /** Default true; false makes stop requests fail (1052), as for RpcSs. */
  canStop?: boolean;
  /** What the service reports as CanPauseAndContinue. Default false. */
  canPauseAndContinue?: boolean;
  /** How long a start stays StartPending. Default 0; a huge value keeps it pending (TIMEOUT tests). */
  startDelayMs?: number;
  /** How long a stop stays StopPending. Default 0. */
  stopDelayMs?: number;
  /** The start is accepted, then the service falls back to Stopped after startDelayMs. */
  failsToStart?: boolean;
}

/** What a scenario declares for this area. Omitted parts take the defaults in module/system/defaults.json. */
export interface SystemSpec {
  /** null: no Win32_BIOS instance at all. */
  bios?: BiosSpec | null;
  /** Replaces the default service set; use `defaultServiceSpecs()` to extend it. */
  services?: readonly ServiceSpec[];
}

/** Win32_BIOS in state.json (serial number as Windows reports it, padding included). */
export interface BiosState {
  /** Win32_BIOS.SerialNumber, padding included; null for none. */
  serialNumber: string | null;
  /** Win32_BIOS.Manufacturer. */
  manufacturer: string;
  /** Win32_BIOS.Name. */
  name: string;
  /** Win32_BIOS.Version. */
  version: string;
  /** Win32_BIOS.SMBIOSBIOSVersion. */
  smbiosBiosVersion: string;
  /** Win32_BIOS.ReleaseDate as an ISO date; null for none. */
  releaseDate: string | null;
}

/** A state change in progress: `via` (pending) until `since + delayMs`, then `to`. Times in Unix ms. */
export interface ServiceTransitionState {
  /** The pending status shown until the change completes (raw ServiceControllerStatus). */
  via: number;
  /** The status reached at `since + delayMs` (raw ServiceControllerStatus). */
  to: number;
  /** When the change began (Unix ms). */
  since: number;
  /** How long the change stays pending, in milliseconds. */
  delayMs: number;
}

/** A service in state.json: SCM status and start mode codes, dependencies, pending transitions. */
export interface ServiceState {
  /** The service's key name, e.g. `MSiSCSI`. */
  name: string;
  /** The service's display name. */
  displayName: string;
  /** The status before any transition (raw ServiceControllerStatus). */
  status: number;
  /** The start mode (raw ServiceStartMode; `startModes` names them). */
  startType: number;
  /** The ServiceType flags, e.g. 16 (Win32OwnProcess). */
  serviceType: number;
  /** Key names of the services this one depends on. */
  dependsOn: string[];
  /** Whether stop requests are accepted; false makes them fail (1052). */
  canStop: boolean;
  /** What the service reports as CanPauseAndContinue. */
  canPauseAndContinue: boolean;
  /** How long a start stays StartPending, in milliseconds. */
  startDelayMs: number;
  /** How long a stop stays StopPending, in milliseconds. */
  stopDelayMs: number;
  /** Whether a start falls back to Stopped after `startDelayMs` instead of reaching Running. */
  failsToStart: boolean;
  /** The state change in progress; null when none is. */
  transition: ServiceTransitionState | null;
  /** When the stored status was reached (Unix ms), once a transition has finished; else null. */
  changedAt: number | null;
}

/** This area's part of state.json. */
export interface SystemState {
  /** The format's version. */
  readonly version: 1;
  /** The BIOS; null when there is no Win32_BIOS instance. */
  bios: BiosState | null;
  /** Every service. */
  services: ServiceState[];
}

/** The defaults the PowerShell side also uses when state.json has no `system` part. */
export const systemDefaultsPath = fileURLToPath(
  new URL("../module/system/defaults.json", import.meta.url),
);

/** A fresh copy of the default system state: a Hyper-V BIOS and a small set of Windows services. */
export function defaultSystemState(): SystemState {
  return JSON.parse(readFileSync(systemDefaultsPath, "utf8")) as SystemState;
}

const statusNames = Object.fromEntries(Object.entries(serviceStatuses).map(([k, v]) => [v, k]));
const modeNames = Object.fromEntries(Object.entries(startModes).map(([k, v]) => [v, k]));

/** The default services as specs, to extend: `services: [...defaultServiceSpecs(), { name: "X" }]`. */
export function defaultServiceSpecs(): ServiceSpec[] {
  return defaultSystemState().services.map((s) => ({
    name: s.name,
    displayName: s.displayName,
    status: (statusNames[s.status] as ServiceStatusName | undefined) ?? s.status,
    startType: (modeNames[s.startType] as StartModeName | undefined) ?? s.startType,
    serviceType: s.serviceType,
    dependsOn: [...s.dependsOn],
    canStop: s.canStop,
  }));
}

function code<T extends Record<string, number>>(table: T, value: keyof T | number): number {
  if (typeof value === "number") return value;
  const found = table[value];
  if (found === undefined) throw new RangeError(`Unknown name ${String(value)}.`);
  return found;
}

function buildService(spec: ServiceSpec): ServiceState {
  return {
    name: spec.name,
    displayName: spec.displayName ?? spec.name,
    status: code(serviceStatuses, spec.status ?? "Stopped"),
    startType: code(startModes, spec.startType ?? "Manual"),
    serviceType: spec.serviceType ?? 16,
    dependsOn: [...(spec.dependsOn ?? [])],
    canStop: spec.canStop ?? true,
    canPauseAndContinue: spec.canPauseAndContinue ?? false,
    startDelayMs: spec.startDelayMs ?? 0,
    stopDelayMs: spec.stopDelayMs ?? 0,
    failsToStart: spec.failsToStart ?? false,
    transition: null,
    changedAt: null,
  };
}

const blankBios: BiosState = {
  serialNumber: null,
  manufacturer: "",
  name: "",
  version: "",
  smbiosBiosVersion: "",
  releaseDate: null,
};

function buildBios(
  spec: BiosSpec | null | undefined,
  fallback: BiosState | null,
): BiosState | null {
  if (spec === null) return null;
  const base = fallback ?? blankBios;
  if (spec === undefined) return base;
  return {
    serialNumber: spec.serialNumber !== undefined ? spec.serialNumber : base.serialNumber,
    manufacturer: spec.manufacturer ?? base.manufacturer,
    name: spec.name ?? base.name,
    version: spec.version ?? base.version,
    smbiosBiosVersion: spec.smbiosBiosVersion ?? base.smbiosBiosVersion,
    releaseDate: spec.releaseDate !== undefined ? spec.releaseDate : base.releaseDate,
  };
}

/** Turns the spec into initial state; `root` is the simulator's sandbox folder (unused here). */
export function buildSystemState(spec: SystemSpec, _root: string): SystemState {
  const defaults = defaultSystemState();
  const services =
    spec.services === undefined ? defaults.services : spec.services.map(buildService);
  const names = new Set<string>();
  for (const s of services) {
    const key = s.name.toLowerCase();
    if (names.has(key)) throw new RangeError(`Service ${s.name} is declared twice.`);
    names.add(key);
  }
  return { version: 1, bios: buildBios(spec.bios, defaults.bios), services };
}

/** A service's status at `now` (Unix ms), as the simulator computes it from a transition. */
export function serviceStatusAt(service: ServiceState, now: number = Date.now()): number {
  const t = service.transition;
  if (t === null) return service.status;
  return now >= t.since + t.delayMs ? t.to : t.via;
}
