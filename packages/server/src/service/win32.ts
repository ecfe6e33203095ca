import { CsiProxyError } from "@csi-proxy/exec";
import { loadKoffiOnWindows, type Koffi } from "../koffi.js";
import type { ScmApi, ServiceStatusHandle } from "./api.js";
import { Scm } from "./api.js";

/** winsvc.h's structs as koffi sees them (x64 layout; test/service.test.ts pins the sizes). */
export const SCM_STRUCTS = {
  SERVICE_STATUS: {
    dwServiceType: "uint32_t",
    dwCurrentState: "uint32_t",
    dwControlsAccepted: "uint32_t",
    dwWin32ExitCode: "uint32_t",
    dwServiceSpecificExitCode: "uint32_t",
    dwCheckPoint: "uint32_t",
    dwWaitHint: "uint32_t",
  },
} as const;

/** The two callbacks the SCM calls, as winsvc.h declares them. */
export const SCM_CALLBACKS = {
  ServiceMainW:
    "void __stdcall ServiceMainW(uint32_t dwNumServicesArgs, void *lpServiceArgVectors)",
  HandlerEx:
    "uint32_t __stdcall HandlerEx(uint32_t dwControl, uint32_t dwEventType, void *lpEventData, void *lpContext)",
} as const;

/** The advapi32 functions, declared once; the SERVICE_STATUS_HANDLE is a pointer-sized integer. */
export const SCM_PROTOTYPES = {
  StartServiceCtrlDispatcherW:
    "int32_t __stdcall StartServiceCtrlDispatcherW(const SERVICE_TABLE_ENTRYW *lpServiceStartTable)",
  RegisterServiceCtrlHandlerExW:
    "intptr_t __stdcall RegisterServiceCtrlHandlerExW(const char16_t *lpServiceName, HandlerEx *lpHandlerProc, void *lpContext)",
  SetServiceStatus:
    "int32_t __stdcall SetServiceStatus(intptr_t hServiceStatus, SERVICE_STATUS *lpServiceStatus)",
} as const;

const defined = new WeakSet<object>();

/** Registers the structs and callback types with koffi once (it refuses a second definition). */
export function defineScmTypes(koffi: Koffi): void {
  if (defined.has(koffi)) return;
  koffi.struct("SERVICE_STATUS", SCM_STRUCTS.SERVICE_STATUS);
  koffi.proto(SCM_CALLBACKS.ServiceMainW);
  koffi.proto(SCM_CALLBACKS.HandlerEx);
  koffi.struct("SERVICE_TABLE_ENTRYW", {
    lpServiceName: "const char16_t *",
    lpServiceProc: "ServiceMainW *",
  });
  defined.add(koffi);
}

type Native = ((...args: unknown[]) => unknown) & { async: (...args: unknown[]) => void };

/**
 * The koffi-backed {@link ScmApi}. The dispatcher blocks its thread until the service stops, so
 * it runs as an async call (a libuv pool thread); koffi queues ServiceMain and the control handler,
 * which the SCM calls on its own threads, to the JS thread.
 *
 * @throws CsiProxyError UNSUPPORTED off Windows or when koffi cannot load.
 */
export function loadScmApi(): ScmApi {
  const koffi = loadKoffiOnWindows("--windows-service runs under the Windows service manager only");
  defineScmTypes(koffi);
  const advapi = koffi.load("advapi32.dll");
  const fn = {
    dispatch: advapi.func(SCM_PROTOTYPES.StartServiceCtrlDispatcherW) as Native,
    register: advapi.func(SCM_PROTOTYPES.RegisterServiceCtrlHandlerExW) as Native,
    setStatus: advapi.func(SCM_PROTOTYPES.SetServiceStatus) as Native,
  };
  const getLastError = koffi
    .load("kernel32.dll")
    .func("uint32_t __stdcall GetLastError()") as Native;
  // Registered callbacks must outlive the dispatcher; they are kept here for the process's life.
  const kept: unknown[] = [];
  return {
    dispatch(name, main) {
      const proc = koffi.register(() => main(), koffi.pointer("ServiceMainW"));
      kept.push(proc);
      const table = [
        { lpServiceName: name, lpServiceProc: proc },
        { lpServiceName: null, lpServiceProc: null },
      ];
      return new Promise((resolve, reject) => {
        fn.dispatch.async(table, (error: unknown, ok: unknown) => {
          if (error !== null && error !== undefined)
            reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
          else if (Number(ok) === 0)
            reject(
              new CsiProxyError(
                `StartServiceCtrlDispatcherW failed (Win32 error ${Number(getLastError())}); --windows-service only works when the service manager starts the process`,
                { code: "FAILED_PRECONDITION" },
              ),
            );
          else resolve();
        });
      });
    },
    registerHandler(name, handler) {
      const proc = koffi.register(
        (control: number) => handler(control),
        koffi.pointer("HandlerEx"),
      );
      kept.push(proc);
      const handle = fn.register(name, proc, null) as ServiceStatusHandle;
      if (Number(handle) === 0) {
        throw new CsiProxyError(
          `RegisterServiceCtrlHandlerExW failed (Win32 error ${Number(getLastError())})`,
          { code: "FAILED_PRECONDITION" },
        );
      }
      return handle;
    },
    setStatus(handle, status) {
      fn.setStatus(handle, {
        dwServiceType: Scm.SERVICE_WIN32_OWN_PROCESS,
        dwCurrentState: status.state,
        dwControlsAccepted: status.controlsAccepted,
        dwWin32ExitCode: status.win32ExitCode,
        dwServiceSpecificExitCode: status.serviceSpecificExitCode,
        dwCheckPoint: status.checkPoint,
        dwWaitHint: status.waitHint,
      });
    },
  };
}
