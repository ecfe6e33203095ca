#!/usr/bin/env node
import { parseCommand } from "./args.js";
import { runServer } from "./main.js";

function asService(argv: readonly string[]): boolean {
  try {
    const command = parseCommand(argv);
    return !command.help && command.version !== true && command.windowsService === true;
  } catch {
    return false; // runServer reports the usage error
  }
}

// No top-level await: the Windows executable bundles this file as CommonJS (tools/windows-exe).
async function main(argv: readonly string[]): Promise<number> {
  if (asService(argv)) {
    // Loaded only here: it binds the service manager's calls through koffi.
    const { runServerAsService } = await import("./service/main.js");
    return runServerAsService(argv);
  }
  const stop = new AbortController();
  // logrotate's postrotate sends SIGHUP: reopen the log files rather than die (Node's default).
  const reopen = new EventTarget();
  if (process.platform !== "win32")
    process.on("SIGHUP", () => reopen.dispatchEvent(new Event("reopen")));
  // SIGTERM (kubelet, systemd, a service manager) and SIGINT stop it cleanly; a second one does not wait.
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      stop.abort();
      process.once(signal, () => process.exit(130));
    });
  }
  return runServer(
    argv,
    stop.signal,
    {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    },
    { reopen },
  );
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
