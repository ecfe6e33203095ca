import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FaultSpec } from "./types.js";

/** What `sim.block()` takes: a `delay` or `hangAfter` fault without a sleep length. */
export type BlockSpec = Omit<
  FaultSpec,
  "action" | "delayMs" | "gate" | "error" | "noise" | "text"
> & {
  /** `delay` (default): hold the call before it acts; `hangAfter`: after it acted and was logged. */
  action?: "delay" | "hangAfter";
};

/**
 * A fault that holds the calls meeting it until the test releases them: a hang test waits for
 * `met()` instead of guessing how long the call takes to get there.
 */
export interface BlockedFault {
  /** The gate's name in faults.json. */
  readonly gate: string;
  /**
   * Resolves once a call has met the fault: for `delay` before the cmdlet acts, for `hangAfter`
   * once it has acted and logged the call. Rejects if the host is disposed first.
   */
  met(): Promise<void>;
  /** Lets every held call go on, and later calls meeting the fault pass straight through. */
  release(): void;
}

// How often met() looks for the gate's file; any value works, it only sets the latency.
const lookEveryMs = 10;

/** The gate of a blocked fault under a host's state folder `dir`. */
export function createGate(dir: string): BlockedFault {
  const gate = randomUUID();
  const gates = join(dir, "gates");
  const metFile = join(gates, `${gate}.met`);
  return {
    gate,
    met: () =>
      new Promise<void>((resolve, reject) => {
        const look = (): void => {
          if (existsSync(metFile)) resolve();
          else if (!existsSync(dir))
            reject(new Error("the simulator was disposed before the fault was met"));
          else setTimeout(look, lookEveryMs);
        };
        look();
      }),
    release: () => {
      mkdirSync(gates, { recursive: true });
      writeFileSync(join(gates, `${gate}.released`), "");
    },
  };
}
