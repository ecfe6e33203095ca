import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPowerShell, type PowerShell } from "@csi-proxy/exec";
import { Simulator, type CallLogEntry, type ScenarioSpec } from "@csi-proxy/winsim";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { canaryVariable, shortCanaryVariable } from "./corpus.js";

/** One simulated host, one session shell (pool of 2) whose processes know the canary path. */
export interface ProofHost {
  readonly sim: Simulator;
  readonly shell: PowerShell;
  readonly canary: string;
  /** The call log entries added since the last `mark()`. */
  since(): CallLogEntry[];
  mark(): void;
}

/** Creates the host once per describe block and checks after every test that no canary exists. */
export function useProofHost(pwsh: string, spec: ScenarioSpec): () => ProofHost {
  let host: ProofHost | undefined;
  beforeAll(async () => {
    const sim = await Simulator.create(spec);
    const canary = join(mkdtempSync(join(tmpdir(), "proof-canary-")), "pwned");
    const shell = createPowerShell(
      sim.shellOptions({
        executable: pwsh,
        poolSize: 2,
        env: { [canaryVariable]: canary, [shortCanaryVariable]: canary },
      }),
    );
    let seen = 0;
    host = {
      sim,
      shell,
      canary,
      since: () => sim.calls().filter((c) => c.seq > seen),
      mark() {
        seen = sim.calls().at(-1)?.seq ?? 0;
      },
    };
  });
  afterEach(() => {
    expect(existsSync(host?.canary ?? ""), "an injected command ran").toBe(false);
  });
  afterAll(async () => {
    await host?.shell.close();
    await host?.sim.dispose();
    if (host !== undefined) rmSync(join(host.canary, ".."), { recursive: true, force: true });
  });
  return () => {
    if (host === undefined) throw new Error("the proof host is not ready");
    return host;
  };
}

/** The code of a call's failure, or "ok". */
export async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "ok";
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? code : `untyped: ${String(error)}`;
  }
}

/** Every string a logged parameter holds (arrays flattened). */
export function loggedStrings(entries: readonly CallLogEntry[], parameter: string): string[] {
  return entries.flatMap((entry) => {
    const value = entry.parameters[parameter];
    const items: unknown[] = Array.isArray(value) ? value : [value];
    return items.filter((item): item is string => typeof item === "string");
  });
}
