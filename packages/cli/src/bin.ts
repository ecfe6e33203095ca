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

// A reader that stops early (`csi-proxy --help | head`) closes the pipe: the rest of the output
// is dropped, not a crash; the command itself still finishes and its exit code stands.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
});

// exitCode, not exit(): stdout and stderr drain before the process ends.
process.exitCode = await runCli(process.argv.slice(2), { signal: interrupt.signal });
