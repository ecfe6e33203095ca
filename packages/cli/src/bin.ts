#!/usr/bin/env node
import { runCli } from "./program.js";

const interrupt = new AbortController();
// The first Ctrl-C cancels the call in flight, so its PowerShell process is ended and the run
// exits with ABORTED's code; a second one does not wait.
process.once("SIGINT", () => {
  interrupt.abort(new Error("interrupted (Ctrl-C)"));
  process.once("SIGINT", () => process.exit(130));
});

// exitCode, not exit(): stdout and stderr drain before the process ends.
process.exitCode = await runCli(process.argv.slice(2), { signal: interrupt.signal });
