// What a session costs before and after its first call: start-up latency, the first call
// with and without warmUp(), and the resident memory of each PowerShell process.
import { createPowerShell, ps, type PowerShell } from "@csi-proxy/exec";
import { Volume } from "@csi-proxy/volume";
import { descendantMemory, type ProcessMemory } from "./memory.js";
import type { ReadHost } from "./reads.js";
import { summarise } from "./stats.js";

const trivial = ps("bench.startup")`param([string]$Name) $Name`;
const samples = 6;
const steadyCalls = 200;

/** Start-up latency of one kind of shell, in milliseconds. */
export interface StartupRow {
  readonly name: string;
  /** createPowerShell() to the first call's result, nothing warmed. */
  readonly cold: { median: number; p95: number };
  /** How long warmUp() took (paid at start-up instead). */
  readonly warmUp: { median: number; p95: number };
  /** The first call after warmUp(). */
  readonly warmFirst: { median: number; p95: number };
  readonly samples: number;
}

/** Resident memory of one PowerShell process, in MiB. */
export interface MemoryRow {
  readonly name: string;
  /** Right after warmUp(): a started process that has run nothing. */
  readonly startedMiB: number;
  /** After `steadyCalls` calls. */
  readonly steadyMiB: number;
  /** Its highest resident size so far (VmHWM). */
  readonly peakMiB: number;
  readonly calls: number;
}

interface Kind {
  readonly name: string;
  readonly create: () => PowerShell;
  /** One typical call of this kind. */
  readonly call: (shell: PowerShell) => Promise<unknown>;
}

function kinds(pwsh: string, host: ReadHost): Kind[] {
  return [
    {
      name: "pwsh, no module",
      create: () => createPowerShell({ executable: pwsh }),
      call: (shell) => shell.run(trivial, { Name: "x" }),
    },
    {
      name: "pwsh with the simulator module (stands in for Storage)",
      create: () => host.shell("session", 1),
      call: (shell) =>
        new Volume({ shell, pathStyle: "posix" }).getVolumeStats({ volumeId: host.volumeId }),
    },
  ];
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const quantiles = (values: readonly number[]) => {
  const { median, p95 } = summarise(values);
  return { median, p95 };
};

/** Cold first call vs warmUp() then first call, `samples` fresh shells each. */
export async function measureStartup(pwsh: string, host: ReadHost): Promise<StartupRow[]> {
  const rows: StartupRow[] = [];
  for (const kind of kinds(pwsh, host)) {
    const cold: number[] = [];
    const warmUp: number[] = [];
    const warmFirst: number[] = [];
    for (let i = 0; i < samples; i++) {
      const a = kind.create();
      try {
        cold.push(await timed(() => kind.call(a)));
      } finally {
        await a.close();
      }
      const b = kind.create();
      try {
        warmUp.push(await timed(() => b.warmUp()));
        warmFirst.push(await timed(() => kind.call(b)));
      } finally {
        await b.close();
      }
    }
    rows.push({
      name: kind.name,
      cold: quantiles(cold),
      warmUp: quantiles(warmUp),
      warmFirst: quantiles(warmFirst),
      samples,
    });
  }
  return rows;
}

function onlyNew(before: ReadonlySet<number>): ProcessMemory {
  const fresh = descendantMemory().filter((m) => !before.has(m.pid));
  if (fresh.length !== 1)
    throw new Error(`expected one new PowerShell process, saw ${fresh.length}`);
  return fresh[0] as ProcessMemory;
}

/** Resident memory of one session process: just started, then after `steadyCalls` calls. */
export async function measureMemory(pwsh: string, host: ReadHost): Promise<MemoryRow[]> {
  const rows: MemoryRow[] = [];
  for (const kind of kinds(pwsh, host)) {
    const before = new Set(descendantMemory().map((m) => m.pid));
    const shell = kind.create();
    try {
      await shell.warmUp();
      const started = onlyNew(before);
      for (let i = 0; i < steadyCalls; i++) await kind.call(shell);
      const steady = onlyNew(before);
      rows.push({
        name: kind.name,
        startedMiB: started.rssMiB,
        steadyMiB: steady.rssMiB,
        peakMiB: steady.peakMiB,
        calls: steadyCalls,
      });
    } finally {
      await shell.close();
    }
  }
  return rows;
}
