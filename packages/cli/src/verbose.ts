import { subscribeExec } from "@csi-proxy/exec";
import { writeLine, type CliOutput } from "./io.js";
import { renderJson } from "./render.js";

// The library publishes parameters with every secret already replaced by `[REDACTED]`.
function params(value: Readonly<Record<string, unknown>>): string {
  return renderJson(value).replace(/\s*\n\s*/g, " ");
}

/**
 * Prints each PowerShell script as it starts, ends or fails, from `@csi-proxy/exec`'s
 * diagnostics channels (whose payloads are redacted), to `stderr`. Returns the unsubscribe.
 */
export function traceScripts(stderr: CliOutput): () => void {
  const stops = [
    subscribeExec("start", (e) =>
      writeLine(stderr, `> ${e.script} #${e.callId} ${params(e.params)}`),
    ),
    subscribeExec("end", (e) =>
      writeLine(
        stderr,
        `< ${e.script} #${e.callId} ok, ${e.count} object(s), ${e.durationMs.toFixed(0)} ms`,
      ),
    ),
    subscribeExec("error", (e) =>
      writeLine(
        stderr,
        `< ${e.script} #${e.callId} failed: ${e.error.code}, ${e.durationMs.toFixed(0)} ms`,
      ),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
