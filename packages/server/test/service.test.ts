import { describe, expect, it } from "vitest";
import { koffi } from "./koffi.js";
import { parseCommand } from "../src/args.js";
import { Scm, type ScmApi, type ServiceStatus } from "../src/service/api.js";
import { runAsService, serviceName } from "../src/service/run.js";
import { defineScmTypes, SCM_CALLBACKS, SCM_PROTOTYPES } from "../src/service/win32.js";

// The Service Control Manager as the tests drive it: ServiceMain runs at once, controls are sent
// by the test, and dispatch ends once the service reported STOPPED (as StartServiceCtrlDispatcher).
class FakeScm implements ScmApi {
  readonly statuses: ServiceStatus[] = [];
  handler: ((control: number) => number) | undefined;
  name = "";
  #stopped: (() => void) | undefined;

  dispatch(name: string, main: () => void): Promise<void> {
    this.name = name;
    return new Promise((resolve) => {
      this.#stopped = resolve;
      main();
    });
  }

  registerHandler(_name: string, handler: (control: number) => number) {
    this.handler = handler;
    return 7;
  }

  setStatus(handle: number | bigint, status: ServiceStatus): void {
    expect(handle).toBe(7);
    this.statuses.push(status);
    if (status.state === Scm.SERVICE_STOPPED) this.#stopped?.();
  }

  states(): number[] {
    return this.statuses.map((s) => s.state);
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("runAsService", () => {
  it("START_PENDING until ready, RUNNING accepting stop and shutdown, then STOP_PENDING and STOPPED", async () => {
    const scm = new FakeScm();
    let stopSignal: AbortSignal | undefined;
    const exit = runAsService(scm, async (stop, ready) => {
      stopSignal = stop;
      ready();
      await new Promise((resolve) => stop.addEventListener("abort", resolve));
      return 0;
    });
    await tick();
    expect(scm.name).toBe(serviceName);
    expect(scm.states()).toEqual([Scm.SERVICE_START_PENDING, Scm.SERVICE_RUNNING]);
    expect(scm.statuses[1]?.controlsAccepted).toBe(
      Scm.SERVICE_ACCEPT_STOP | Scm.SERVICE_ACCEPT_SHUTDOWN,
    );
    expect(scm.handler?.(Scm.SERVICE_CONTROL_INTERROGATE)).toBe(Scm.NO_ERROR);
    expect(scm.handler?.(0x80)).toBe(Scm.ERROR_CALL_NOT_IMPLEMENTED);
    expect(stopSignal?.aborted).toBe(false);
    expect(scm.handler?.(Scm.SERVICE_CONTROL_STOP)).toBe(Scm.NO_ERROR);
    expect(stopSignal?.aborted).toBe(true);
    expect(await exit).toBe(0);
    expect(scm.states()).toEqual([
      Scm.SERVICE_START_PENDING,
      Scm.SERVICE_RUNNING,
      Scm.SERVICE_STOP_PENDING,
      Scm.SERVICE_STOPPED,
    ]);
    expect(scm.statuses.at(-1)).toMatchObject({ win32ExitCode: 0, checkPoint: 0, waitHint: 0 });
  });

  it("a start that fails reports STOPPED with the exit code as the service-specific code", async () => {
    const scm = new FakeScm();
    expect(await runAsService(scm, () => Promise.resolve(1))).toBe(1);
    expect(scm.states()).toEqual([Scm.SERVICE_START_PENDING, Scm.SERVICE_STOPPED]);
    expect(scm.statuses.at(-1)).toMatchObject({
      win32ExitCode: Scm.ERROR_SERVICE_SPECIFIC_ERROR,
      serviceSpecificExitCode: 1,
    });
  });

  it("shutdown stops it as stop does; a second control does not stop it twice", async () => {
    const scm = new FakeScm();
    let aborts = 0;
    const exit = runAsService(scm, async (stop, ready) => {
      stop.addEventListener("abort", () => aborts++);
      ready();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) =>
        stop.aborted ? resolve(undefined) : stop.addEventListener("abort", resolve),
      );
      return 0;
    });
    await tick();
    scm.handler?.(Scm.SERVICE_CONTROL_SHUTDOWN);
    scm.handler?.(Scm.SERVICE_CONTROL_STOP);
    expect(await exit).toBe(0);
    expect(aborts).toBe(1);
    expect(scm.states().filter((s) => s === Scm.SERVICE_STOP_PENDING)).toHaveLength(1);
  });
});

describe("--windows-service", () => {
  it("is accepted on Windows without a socket folder, and refused elsewhere", () => {
    expect(parseCommand(["--windows-service", "--policy", "p"], "win32")).toMatchObject({
      windowsService: true,
    });
    expect(parseCommand(["-windows-service", "--policy", "p"], "win32")).toMatchObject({
      windowsService: true,
    });
    expect(() =>
      parseCommand(["--windows-service", "--socket-dir", "/s", "--policy", "p"], "linux"),
    ).toThrow("--windows-service runs under the Windows service manager only");
  });
});

describe("the service manager's declarations", () => {
  // winsvc.h: BOOL StartServiceCtrlDispatcherW(const SERVICE_TABLE_ENTRYW*);
  // SERVICE_STATUS_HANDLE RegisterServiceCtrlHandlerExW(LPCWSTR, LPHANDLER_FUNCTION_EX, LPVOID);
  // BOOL SetServiceStatus(SERVICE_STATUS_HANDLE, LPSERVICE_STATUS);
  // VOID WINAPI ServiceMain(DWORD, LPWSTR*); DWORD WINAPI HandlerEx(DWORD, DWORD, LPVOID, LPVOID).
  it.skipIf(koffi === undefined || process.arch !== "x64")(
    "parse in koffi with the SDK's arity and the x64 struct layouts",
    () => {
      const ffi = koffi;
      if (ffi === undefined) return;
      defineScmTypes(ffi);
      defineScmTypes(ffi);
      const arity = (decl: string) => ffi.proto(decl).proto?.arguments.length;
      expect(arity(SCM_PROTOTYPES.StartServiceCtrlDispatcherW)).toBe(1);
      expect(arity(SCM_PROTOTYPES.RegisterServiceCtrlHandlerExW)).toBe(3);
      expect(arity(SCM_PROTOTYPES.SetServiceStatus)).toBe(2);
      expect(arity(SCM_CALLBACKS.ServiceMainW.replace("ServiceMainW", "ServiceMainCheck"))).toBe(2);
      expect(arity(SCM_CALLBACKS.HandlerEx.replace("HandlerEx(", "HandlerExCheck("))).toBe(4);
      expect(ffi.sizeof("SERVICE_STATUS")).toBe(28);
      expect(ffi.sizeof("SERVICE_TABLE_ENTRYW")).toBe(16);
      expect(ffi.offsetof("SERVICE_TABLE_ENTRYW", "lpServiceProc")).toBe(8);
    },
  );
});
