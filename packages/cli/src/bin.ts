#!/usr/bin/env node
import { runCli } from "./program.js";

const interrupt = new AbortController();
// The first Ctrl-C (or SIGTERM, SIGHUP) cancels the call in flight, so its PowerShell process is
// ended, the simulated node's temporary folder removed, and the run exits with ABORTED's code;
// a second one does not wait (an exit listener still removes that folder).
const reasons = {
  SIGINT: "interrupted (Ctrl-C)",
  SIGTERM: "terminated (SIGTERM)",
  SIGHUP: "hung up (SIGHUP)",
};
const exitCodes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    interrupt.abort(new Error(reasons[signal]));
    process.once(signal, () => process.exit(exitCodes[signal]));
  });
}

// exitCode, not exit(): stdout and stderr drain before the process ends.
process.exitCode = await runCli(process.argv.slice(2), { signal: interrupt.signal });
