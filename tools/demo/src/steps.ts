import { subscribe } from "node:diagnostics_channel";
import { execChannels, type ExecStartEvent } from "@csi-proxy/exec";

/** One printed step of the demo. */
export interface StepResult {
  readonly step: string;
  readonly ok: boolean;
  readonly durationMs: number;
  readonly detail: string;
}

/** Runs steps in order, timing each, and prints them as text or collects them for JSON. */
export class StepRunner {
  readonly results: StepResult[] = [];

  constructor(
    private readonly json: boolean,
    verbose: boolean,
  ) {
    // --verbose shows each PowerShell script and its bound parameters, secrets already redacted.
    if (verbose && !json) {
      subscribe(execChannels.start, (message) => {
        const event = message as ExecStartEvent;
        console.log(`    ps> ${event.script} ${JSON.stringify(event.params)}`);
      });
    }
  }

  async step(name: string, body: () => Promise<string>): Promise<void> {
    const started = performance.now();
    let ok = true;
    let detail: string;
    try {
      detail = await body();
    } catch (error) {
      ok = false;
      detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    const result = { step: name, ok, durationMs: performance.now() - started, detail };
    this.results.push(result);
    if (!this.json)
      console.log(
        `${ok ? "ok  " : "FAIL"} ${result.durationMs.toFixed(1).padStart(8)} ms  ${name}: ${detail}`,
      );
  }
}
