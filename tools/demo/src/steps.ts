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

  /** The summed duration of every step so far. */
  totalMs(): number {
    return this.results.reduce((sum, r) => sum + r.durationMs, 0);
  }

  /** Runs one step; after a failure the remaining steps are reported as skipped. */
  async step(name: string, body: () => Promise<string>): Promise<void> {
    if (this.results.some((r) => !r.ok)) {
      this.record({
        step: name,
        ok: false,
        durationMs: 0,
        detail: "skipped after an earlier failure",
      });
      return;
    }
    const started = performance.now();
    let ok = true;
    let detail: string;
    try {
      detail = await body();
    } catch (error) {
      ok = false;
      detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    this.record({ step: name, ok, durationMs: performance.now() - started, detail });
  }

  private record(result: StepResult): void {
    this.results.push(result);
    if (this.json) return;
    const mark = result.ok ? "ok  " : "FAIL";
    console.log(
      `${mark} ${result.durationMs.toFixed(1).padStart(8)} ms  ${result.step}: ${result.detail}`,
    );
  }
}
