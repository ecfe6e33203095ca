import {
  createPowerShell,
  isCsiProxyError,
  ps,
  type CallOptions,
  type CsiProxyErrorCode,
  type Params,
  type PowerShell,
  type RunOptions,
  type Script,
} from "@csi-proxy/exec";
import { Simulator, type FaultError, type FaultSpec, type ScenarioSpec } from "@csi-proxy/winsim";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { repeatedPrefix } from "./message-prefix.js";

/** The faults every method meets on the first cmdlet it calls. */
export type FaultKind = "terminating" | "written" | "hang" | "kill" | "noise" | "garbage";

export const faultKinds: readonly FaultKind[] = [
  "terminating",
  "written",
  "hang",
  "kill",
  "noise",
  "garbage",
];

/** Far past any timeout a hang case uses: the call can only end by being timed out. */
const hangMs = 600_000;
/** A hang's first timeout; a warm process reaches its first cmdlet in a few milliseconds. */
const firstHangTimeoutMs = 1_000;
/** Past this, a warm process not reaching its first cmdlet is a failure, not load. */
const lastHangTimeoutMs = 64_000;

/** Makes sure the shell's one process is up, so a hang's short timeout covers no start-up. */
const warmScript = ps("proof.faults.warm")`
1
`;

/**
 * The transport of a matrix: the real session shell, whose calls get a short timeout only while a
 * hang case is armed. Resets, baselines and recovery calls keep the shell's generous default, so
 * a slow process start under load never turns into a false TIMEOUT.
 */
class ArmableShell implements PowerShell {
  readonly mode: PowerShell["mode"];
  armedTimeoutMs: number | undefined;

  constructor(private readonly inner: PowerShell) {
    this.mode = inner.mode;
  }

  run<T = unknown>(script: Script, params?: Params, options?: RunOptions): Promise<T> {
    if (this.armedTimeoutMs === undefined) return this.inner.run<T>(script, params, options);
    return this.inner.run<T>(script, params, { ...options, timeoutMs: this.armedTimeoutMs });
  }

  warmUp(options?: CallOptions): Promise<void> {
    return this.inner.warmUp(options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

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

function faultFor(
  kind: Exclude<FaultKind, "hang">,
  cmdlet: string,
  hostError: FaultError,
): FaultSpec {
  switch (kind) {
    case "terminating":
      return { command: cmdlet, action: "error", error: { ...hostError, terminating: true } };
    case "written":
      return { command: cmdlet, action: "error", error: hostError };
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
    let shell: ArmableShell;
    let groups: G;
    const baselines = new Map<string, unknown>();

    beforeAll(async () => {
      sim = await Simulator.create(matrix.scenario);
      shell = new ArmableShell(
        createPowerShell(sim.shellOptions({ executable: pwsh, poolSize: 1 })),
      );
      groups = await matrix.build(sim, shell);
    });

    afterEach(() => {
      shell.armedTimeoutMs = undefined;
      sim.clearFaults();
    });

    afterAll(async () => {
      await shell.close();
      await sim.dispose();
    });

    /** Resets the host, then calls the method. */
    const run = async (entry: MethodCase<G>): Promise<Settled> => {
      if (entry.reset !== undefined) await settle(entry.reset(groups, sim));
      return settle(entry.call(groups));
    };

    /** The calls logged since sequence number `seen` that ran `cmdlet`. */
    const hits = (seen: number, cmdlet: string) =>
      sim.calls().filter((c) => c.seq > seen && c.command === cmdlet);

    /**
     * The call, with its first cmdlet hanging, under a short timeout. The timeout starts short and
     * doubles while the call timed out before reaching the cmdlet (a loaded machine): no bound on
     * how long anything takes is asserted, only that a hang ends in TIMEOUT.
     */
    const hang = async (entry: MethodCase<G>): Promise<Settled> => {
      for (let timeoutMs = firstHangTimeoutMs; ; timeoutMs *= 2) {
        if (entry.reset !== undefined) await settle(entry.reset(groups, sim));
        await shell.run(warmScript);
        sim.clearFaults();
        sim.fault({ command: entry.cmdlet, action: "delay", delayMs: hangMs });
        shell.armedTimeoutMs = timeoutMs;
        const faulted = await settle(entry.call(groups));
        shell.armedTimeoutMs = undefined;
        // A delay fault used up was met, though its call, killed mid-sleep, is never logged.
        const met = sim.faults().every((f) => f.times === 0);
        sim.clearFaults();
        if (met || codeOf(faulted) !== "TIMEOUT") return faulted;
        if (timeoutMs >= lastHangTimeoutMs) {
          throw new Error(`${entry.method} did not reach ${entry.cmdlet} in ${timeoutMs} ms`);
        }
      }
    };

    /** The call with `kind` met on its first cmdlet. */
    const provoke = async (entry: MethodCase<G>, kind: FaultKind): Promise<Settled> => {
      if (kind === "hang") return hang(entry);
      if (entry.reset !== undefined) await settle(entry.reset(groups, sim));
      sim.fault(faultFor(kind, entry.cmdlet, matrix.hostError));
      const faulted = await settle(entry.call(groups));
      sim.clearFaults();
      return faulted;
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

      for (const kind of faultKinds) {
        // Generous: a hang that must double its timeout a few times on a loaded machine is no failure.
        it(`${entry.method}: ${kind} on ${entry.cmdlet}`, { timeout: 300_000 }, async () => {
          if (!baselines.has(entry.method)) throw new Error("the baseline call failed");
          const baseline = baselines.get(entry.method);
          const seen = sim.calls().at(-1)?.seq ?? 0;
          const faulted = await provoke(entry, kind);
          const hit = hits(seen, entry.cmdlet);
          switch (kind) {
            case "terminating":
            case "written":
              expect(codeOf(faulted)).toBe(entry.code);
              expect(hit.some((c) => c.outcome === "fault")).toBe(true);
              break;
            case "hang":
              expect(codeOf(faulted)).toBe("TIMEOUT");
              break;
            case "kill":
              expect(codeOf(faulted)).toBe("PROCESS_EXITED");
              expect(hit.some((c) => c.outcome === "killed")).toBe(true);
              break;
            case "noise":
            case "garbage":
              expect(codeOf(faulted)).toBe("ok");
              expect(faulted.ok ? faulted.value : undefined).toEqual(baseline);
              expect(hit[0]?.outcome).toBe("ok");
              break;
          }
          // The pool recovers: the next call on the same shell gives the normal result.
          const next = await run(entry);
          expect(codeOf(next)).toBe("ok");
          expect(next.ok ? next.value : undefined).toEqual(baseline);
        });
      }
    }

    // Issue #16: "startService(MSiSCSI) failed: startService(MSiSCSI): ..." said it twice.
    it(
      "every failure message names its method once and says failed once",
      { timeout: 600_000 },
      async () => {
        const repeats: string[] = [];
        for (const entry of matrix.cases) {
          for (const kind of messageKinds) {
            const faulted = await provoke(entry, kind);
            if (faulted.ok) throw new Error(`${entry.method} did not fail on ${kind}`);
            const { error } = faulted;
            const message = error instanceof Error ? error.message : String(error);
            const why = repeatedPrefix(entry.method, message);
            if (why !== undefined) repeats.push(`${entry.method} (${kind}) ${why}: ${message}`);
          }
        }
        expect(repeats).toEqual([]);
      },
    );
  });
}

/** One fault per way a failure's message is built: a host error, a dead process, a timeout. */
const messageKinds: readonly FaultKind[] = ["terminating", "kill", "hang"];
