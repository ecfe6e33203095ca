import type { Params, PowerShell, RunOptions, Script } from "@csi-proxy/exec";

/** One recorded run. */
export interface ShellRun {
  script: Script;
  params: Params | undefined;
  options: RunOptions | undefined;
}

/**
 * A PowerShell that runs nothing: each run takes the next queued answer (a value to resolve
 * with, or an Error to reject with) for that script's name, and is recorded.
 */
export class FakeShell implements PowerShell {
  readonly mode = "session" as const;
  readonly runs: ShellRun[] = [];
  readonly answers = new Map<string, unknown[]>();
  closed = false;

  answer(scriptName: string, ...values: unknown[]): this {
    this.answers.set(scriptName, [...(this.answers.get(scriptName) ?? []), ...values]);
    return this;
  }

  run<T = unknown>(script: Script, params?: Params, options?: RunOptions): Promise<T> {
    this.runs.push({ script, params, options });
    const queue = this.answers.get(script.name);
    if (queue === undefined || queue.length === 0) {
      return Promise.reject(new Error(`no answer queued for ${script.name}`));
    }
    const next = queue.shift();
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next as T);
  }

  warmUp(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}
