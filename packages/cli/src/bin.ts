#!/usr/bin/env node
import { runCli } from "./program.js";

// exitCode, not exit(): stdout and stderr drain before the process ends.
process.exitCode = await runCli(process.argv.slice(2));
