#!/usr/bin/env node
import { runServer } from "./main.js";

const stop = new AbortController();
// SIGTERM (kubelet, systemd, a service manager) and SIGINT stop it cleanly; a second one does not wait.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    stop.abort();
    process.once(signal, () => process.exit(130));
  });
}

process.exitCode = await runServer(process.argv.slice(2), stop.signal, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
