import { Scm, type ScmApi, type ServiceStatus, type ServiceStatusHandle } from "./api.js";

/** Upstream's service name (`sc.exe create csiproxy ...`), kept so its install scripts still apply. */
export const serviceName = "csiproxy";

/** What the service runs: resolves with the exit code once `stop` aborted and it is down. */
export type ServiceBody = (stop: AbortSignal, ready: () => void) => Promise<number>;

const startWaitHintMs = 60_000;
const stopWaitHintMs = 15_000;

/**
 * Runs `body` as the Windows service `name`: START_PENDING until `body` calls `ready`, then
 * RUNNING; a STOP or SHUTDOWN control aborts `body`'s signal (STOP_PENDING), and STOPPED is
 * reported when it ends, with its exit code as the service-specific exit code when not 0.
 */
export async function runAsService(
  api: ScmApi,
  body: ServiceBody,
  name: string = serviceName,
): Promise<number> {
  let exitCode = 0;
  await api.dispatch(name, () => {
    const stop = new AbortController();
    let checkPoint = 0;
    // Set once the handler is registered; nothing is reported before that.
    const registered: { handle?: ServiceStatusHandle } = {};
    const report = (state: number, extra: Partial<ServiceStatus> = {}) => {
      const { handle } = registered;
      if (handle === undefined) return;
      const pending = state === Scm.SERVICE_START_PENDING || state === Scm.SERVICE_STOP_PENDING;
      api.setStatus(handle, {
        state,
        controlsAccepted:
          state === Scm.SERVICE_RUNNING ? Scm.SERVICE_ACCEPT_STOP | Scm.SERVICE_ACCEPT_SHUTDOWN : 0,
        win32ExitCode: Scm.NO_ERROR,
        serviceSpecificExitCode: 0,
        checkPoint: pending ? ++checkPoint : 0,
        waitHint:
          state === Scm.SERVICE_START_PENDING ? startWaitHintMs : pending ? stopWaitHintMs : 0,
        ...extra,
      });
    };
    registered.handle = api.registerHandler(name, (control) => {
      if (control === Scm.SERVICE_CONTROL_STOP || control === Scm.SERVICE_CONTROL_SHUTDOWN) {
        if (!stop.signal.aborted) {
          report(Scm.SERVICE_STOP_PENDING);
          stop.abort();
        }
        return Scm.NO_ERROR;
      }
      return control === Scm.SERVICE_CONTROL_INTERROGATE
        ? Scm.NO_ERROR
        : Scm.ERROR_CALL_NOT_IMPLEMENTED;
    });
    report(Scm.SERVICE_START_PENDING);
    const finished = (code: number) => {
      exitCode = code;
      report(
        Scm.SERVICE_STOPPED,
        code === 0
          ? {}
          : { win32ExitCode: Scm.ERROR_SERVICE_SPECIFIC_ERROR, serviceSpecificExitCode: code },
      );
    };
    body(stop.signal, () => {
      if (!stop.signal.aborted) report(Scm.SERVICE_RUNNING);
    }).then(finished, () => finished(1));
  });
  return exitCode;
}
