import {
  createPowerShell,
  isCsiProxyError,
  ps,
  type CsiProxyErrorCode,
  type PowerShell,
} from "@csi-proxy/exec";
import { Simulator, type FaultError, type FaultSpec, type ScenarioSpec } from "@csi-proxy/winsim";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

/** The faults every method meets on the first cmdlet it calls. */
export type FaultKind = "error" | "written-error" | "hang" | "kill" | "noise" | "garbage";

/**
 * The timeout of each group's second shell, the one hang faults run on; a hang sleeps far past
 * it. The main shell keeps the default, so a respawn under load never turns into a false TIMEOUT.
 */
export const hangShellTimeoutMs = 4_000;

/**
 * Holds a process for a moment, so two of these at once start both processes of the hang shell.
 * Both are then warm: the call after a hang runs at once on the survivor, with no process start
 * counted against the short timeout.
 */
const warmScript = ps("proof.faults.warm")`
Start-Sleep -Milliseconds 300
1
`;
const hangMs = 120_000;

/** A plain written (non-terminating by nature) error: only the host's ErrorActionPreference stops it. */
export const writtenError: FaultError = {
  message: "winsim: a written, non-terminating error",
  errorId: "WinSimWrittenError",
  category: "WriteError",
  exceptionType: "System.Exception",
};

/** One method of a group: how to call it, which cmdlet it calls first, what its failure is. */
export interface MethodCase<G> {
  readonly method: string;
  /** The first simulated cmdlet the method calls (checked against the call log). */
  readonly cmdlet: string;
  /** The documented code of a failed `cmdlet` (both error faults). */
  readonly code: CsiProxyErrorCode;
  readonly call: (groups: G) => Promise<unknown>;
  /** Brings the host back to the state the call expects; its own failures are ignored. */
  readonly reset?: (groups: G, sim: Simulator) => Promise<unknown>;
  /** The representative method of its group for the (slow) hang fault. */
  readonly hang?: boolean;
}

/** A group's matrix: one simulator, one session shell, every method × every fault. */
export interface GroupMatrix<G> {
  readonly group: string;
  readonly scenario: ScenarioSpec;
  /** The group's terminating host error (a CIM or Windows error as the real cmdlets write). */
  readonly hostError: FaultError;
  readonly build: (sim: Simulator, shell: PowerShell) => G | Promise<G>;
  readonly cases: readonly MethodCase<G>[];
}

function faultFor(kind: FaultKind, cmdlet: string, hostError: FaultError): FaultSpec {
  switch (kind) {
    case "error":
      return { command: cmdlet, action: "error", error: hostError };
    case "written-error":
      return { command: cmdlet, action: "error", error: writtenError };
    case "hang":
      return { command: cmdlet, action: "delay", delayMs: hangMs };
    case "kill":
      return { command: cmdlet, action: "kill" };
    case "noise":
      return {
        command: cmdlet,
        action: "noise",
        noise: ["warning", "progress", "host", "verbose", "information"],
      };
    case "garbage":
      return { command: cmdlet, action: "garbage" };
  }
}

/** What a settled call gave: its value, or its error's code. */
type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

async function settle(call: Promise<unknown>): Promise<Settled> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    return { ok: false, error };
  }
}

function codeOf(settled: Settled): string {
  if (settled.ok) return "ok";
  const { error } = settled;
  return isCsiProxyError(error) ? error.code : `untyped: ${String(error)}`;
}

/** The faults a case meets: all six, except hang only on the group's representative method. */
export function faultsOf(entry: { readonly hang?: boolean }): FaultKind[] {
  const all: FaultKind[] = ["error", "written-error", "kill", "noise", "garbage"];
  return entry.hang === true ? [...all, "hang"] : all;
}

/**
 * One group's fault matrix, to declare inside a `describeWithPwsh` body (inside a
 * `describe.concurrent` lane, groups of different lanes run at once; each has its own simulator).
 * The tests of a group run one after another.
 */
export function faultMatrix<G>(matrix: GroupMatrix<G>): (pwsh: string) => void {
  return (pwsh) => describeFaultMatrix(pwsh, matrix);
}

function describeFaultMatrix<G>(pwsh: string, matrix: GroupMatrix<G>): void {
  describe(`faults: every ${matrix.group} method × every fault`, { concurrent: false }, () => {
    let sim: Simulator;
    let shell: PowerShell;
    let hangShell: PowerShell;
    let groups: G;
    let hangGroups: G;
    const baselines = new Map<string, unknown>();

    beforeAll(async () => {
      sim = await Simulator.create(matrix.scenario);
      shell = createPowerShell(sim.shellOptions({ executable: pwsh, poolSize: 1 }));
      hangShell = createPowerShell(
        sim.shellOptions({ executable: pwsh, poolSize: 2, timeoutMs: hangShellTimeoutMs }),
      );
      groups = await matrix.build(sim, shell);
      hangGroups = await matrix.build(sim, hangShell);
    });

    afterEach(() => {
      sim.clearFaults();
    });

    afterAll(async () => {
      await shell.close();
      await hangShell.close();
      await sim.dispose();
    });

    /** Resets the host, then calls the method, both on the given shell's groups. */
    const run = async (entry: MethodCase<G>, on: G): Promise<Settled> => {
      if (entry.reset !== undefined) await settle(entry.reset(on, sim));
      return settle(entry.call(on));
    };

    for (const entry of matrix.cases) {
      it(`${entry.method}: succeeds without a fault, calling ${entry.cmdlet} first`, async () => {
        if (entry.reset !== undefined) await settle(entry.reset(groups, sim));
        const seen = sim.calls().at(-1)?.seq ?? 0;
        const result = await settle(entry.call(groups));
        expect(codeOf(result)).toBe("ok");
        expect(sim.calls().find((c) => c.seq > seen)?.command).toBe(entry.cmdlet);
        baselines.set(entry.method, result.ok ? result.value : undefined);
      });

      for (const kind of faultsOf(entry)) {
        it(`${entry.method}: ${kind} on ${entry.cmdlet}`, async () => {
          if (!baselines.has(entry.method)) throw new Error("the baseline call failed");
          const baseline = baselines.get(entry.method);
          // Hangs run on the shell with the short timeout; the recovery call uses that shell too.
          const on = kind === "hang" ? hangGroups : groups;
          if (kind === "hang") {
            const warm = () => hangShell.run(warmScript, {}, { timeoutMs: 120_000 });
            await Promise.all([warm(), warm()]);
          }
          if (entry.reset !== undefined) await settle(entry.reset(on, sim));
          const seen = sim.calls().at(-1)?.seq ?? 0;
          sim.fault(faultFor(kind, entry.cmdlet, matrix.hostError));
          const faulted = await settle(entry.call(on));
          sim.clearFaults();
          const hit = sim.calls().filter((c) => c.seq > seen && c.command === entry.cmdlet);
          switch (kind) {
            case "error":
            case "written-error":
              expect(codeOf(faulted)).toBe(entry.code);
              expect(hit[0]?.outcome).toBe("fault");
              break;
            case "hang":
              expect(codeOf(faulted)).toBe("TIMEOUT");
              break;
            case "kill":
              expect(codeOf(faulted)).toBe("PROCESS_EXITED");
              expect(hit[0]?.outcome).toBe("killed");
              break;
            case "noise":
            case "garbage":
              expect(codeOf(faulted)).toBe("ok");
              expect(faulted.ok ? faulted.value : undefined).toEqual(baseline);
              expect(hit[0]?.outcome).toBe("ok");
              break;
          }
          // The shell recovers: the next call on it gives the normal result.
          const next = await run(entry, on);
          expect(codeOf(next)).toBe("ok");
          expect(next.ok ? next.value : undefined).toEqual(baseline);
        });
      }
    }
  });
}
