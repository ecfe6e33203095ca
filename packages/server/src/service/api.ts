/** The Service Control Manager calls a Windows service makes, behind an interface so tests fake them. */
export interface ScmApi {
  /**
   * StartServiceCtrlDispatcherW: connects this process to the SCM and resolves once every service
   * in it reported STOPPED. `main` is the service's ServiceMain, run on the JS thread.
   */
  dispatch(name: string, main: () => void): Promise<void>;
  /** RegisterServiceCtrlHandlerExW: `handler` gets each control code and returns a Win32 error code. */
  registerHandler(name: string, handler: (control: number) => number): ServiceStatusHandle;
  /** SetServiceStatus. */
  setStatus(handle: ServiceStatusHandle, status: ServiceStatus): void;
}

/** A SERVICE_STATUS_HANDLE. */
export type ServiceStatusHandle = bigint | number;

/** The SERVICE_STATUS fields a service sets (its type is always SERVICE_WIN32_OWN_PROCESS). */
export interface ServiceStatus {
  readonly state: number;
  readonly controlsAccepted: number;
  readonly win32ExitCode: number;
  readonly serviceSpecificExitCode: number;
  readonly checkPoint: number;
  readonly waitHint: number;
}

/** The values of winsvc.h the service uses. */
export const Scm = {
  SERVICE_WIN32_OWN_PROCESS: 0x10,
  SERVICE_STOPPED: 1,
  SERVICE_START_PENDING: 2,
  SERVICE_STOP_PENDING: 3,
  SERVICE_RUNNING: 4,
  SERVICE_CONTROL_STOP: 1,
  SERVICE_CONTROL_INTERROGATE: 4,
  SERVICE_CONTROL_SHUTDOWN: 5,
  SERVICE_ACCEPT_STOP: 1,
  SERVICE_ACCEPT_SHUTDOWN: 4,
  NO_ERROR: 0,
  ERROR_CALL_NOT_IMPLEMENTED: 120,
  ERROR_SERVICE_SPECIFIC_ERROR: 1066,
} as const;
