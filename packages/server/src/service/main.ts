import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { runServer } from "../main.js";
import type { ScmApi } from "./api.js";
import { runAsService } from "./run.js";
import { loadScmApi } from "./win32.js";

/** Where a service's ready line and errors go: a service has no console. */
export function serviceLogFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.ProgramData ?? "C:\\ProgramData", "csi-proxy-server", "service.log");
}

/**
 * `csi-proxy-server --windows-service ...`: the server under the Service Control Manager, as
 * upstream's `-windows-service` (service name `csiproxy`). RUNNING once it prints its ready line;
 * Stop and Shutdown stop it cleanly. Its output goes to {@link serviceLogFile}.
 */
export function runServerAsService(
  argv: readonly string[],
  api: ScmApi = loadScmApi(),
  logFile: string = serviceLogFile(),
): Promise<number> {
  const log = (line: string) => {
    mkdirSync(join(logFile, ".."), { recursive: true });
    appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
  };
  return runAsService(api, (stop, ready) =>
    runServer(argv, stop, {
      out: (line) => {
        log(line);
        if (line.startsWith('{"ready":true')) ready();
      },
      err: log,
    }),
  );
}
