import type { Params, PowerShell, RunOptions, Script } from "@csi-proxy/exec";

/** One recorded `run` of the fake PowerShell. */
export interface ShellCall {
  script: Script;
  params: Params | undefined;
  options: RunOptions | undefined;
}

/**
 * A PowerShell that runs nothing: it records every call and answers from `results` by script
 * name (or rejects with an Error given there).
 */
export class FakePowerShell implements PowerShell {
  readonly mode = "session" as const;
  readonly calls: ShellCall[] = [];
  readonly results = new Map<string, unknown>();
  closed = false;

  run<T = unknown>(script: Script, params?: Params, options?: RunOptions): Promise<T> {
    this.calls.push({ script, params, options });
    const result = this.results.get(script.name);
    if (result instanceof Error) return Promise.reject(result);
    return Promise.resolve(result as T);
  }

  warmUp(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}
