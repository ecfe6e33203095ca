// What `@csi-proxy/server` adds to a library call: the same read through the bin over gRPC on a
// Unix socket (policy check, audit line, status mapping included) and directly, side by side.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { status } from "@grpc/grpc-js";
import { defaultPowershellPool } from "@csi-proxy/server";
import { System } from "@csi-proxy/system";
import { createSimulatedPowerShell, Simulator } from "@csi-proxy/winsim";
import { cpuBetween, sampleCpu, type CpuSample } from "./cpu.js";
import type { Row } from "./measure.js";
import { processMemory } from "./memory.js";
import { V1Client } from "./rpc.js";
import { spawnReady, startServerBin, stopChild } from "./server-bin.js";
import { bootstrapInterval, summarise, type Interval } from "./stats.js";

/** The server's own memory (the Node process; its PowerShell process is counted apart). */
export interface ServerMemory {
  readonly readyMiB: number;
  readonly afterCallsMiB: number;
  readonly peakMiB: number;
  readonly calls: number;
}

/** The direct and the gRPC row of one read, the floor under the gRPC row, and the server's memory. */
export interface ServerResults {
  readonly direct: Row;
  readonly viaServer: Row;
  /** The same RPC refused by the server's policy: identity, decision, audit line, status; no host call. */
  readonly denied?: Row | undefined;
  /**
   * The refused RPC again with the :authority grpc-go up to 1.56 sends (upstream's pipe target),
   * which the server rewrites on the way in (`src/wire/`) before nghttp2 reads it.
   */
  readonly rewritten?: Row | undefined;
  /** The same RPC answered by a grpc-js server that does nothing, on the same kind of socket. */
  readonly floor?: Row | undefined;
  /**
   * The idle floor: that server answering after `idleFloorDelayMs` (the library call's median in
   * a first pass), and a timer of that length in the client alone, so their difference is what the
   * RPC costs when both processes have waited as long as a host call takes.
   */
  readonly idleFloor?: { readonly delayed: Row; readonly timer: Row; readonly delayMs: number };
  /**
   * The allowed calls' `durationMs` in the audit log (median): from the call's arrival at the
   * server's handler to its answer, so the server's side of the allowed row without the wire.
   */
  readonly inServerMs?: number | undefined;
  /**
   * The allowed call less the library call less the idle floor, as a 90% bootstrap interval of
   * the medians (the rows resampled), so a run's figure comes with how far it may be off.
   */
  readonly allowedInterval?: Interval | undefined;
  /** How long and with how many calls (the fewest of any row) every row was warmed. */
  readonly warm?: { readonly ms: number; readonly calls: number } | undefined;
  readonly memory: ServerMemory;
}

/** The target: the server's own work per RPC (policy, audit, status mapping, identity), median. */
export const serverOverheadTargetMs = 0.5;

/** Issue #37's target: an allowed RPC less the library call less the (idle) floor, median. */
export const allowedOverheadTargetMs = 0.5;

// 40 rounds of 20 calls per row: 800 samples each, the rows' batches taking turns.
export const serverRounds = 40;
export const serverPerRound = 20;
const warmupCalls = 20;
/**
 * How long every row runs, in turns and a pool's worth of calls at once, before the rounds: a
 * process that has served a few dozen calls is still compiling its code (V8 optimised 81 functions
 * in the server's calls 300 to 800, 7 in its calls 3,000 to 3,500), and that work shares the two
 * cores with PowerShell. A node's server serves for days; the rounds time it as it runs then.
 */
export const serverWarmMs = 40_000;
const floorServer = fileURLToPath(new URL("./floor-server.js", import.meta.url));

// The allowed set gets the one RPC; the "denied" set's caller is refused it by the policy alone.
const benchPolicy = {
  version: 1,
  rules: [
    {
      name: "bench",
      callers: [{ endpointSet: "default" }],
      methods: ["system.GetBIOSSerialNumber"],
    },
  ],
};

async function startBin(pwsh: string, dir: string) {
  const policy = join(dir, "policy.json");
  writeFileSync(policy, JSON.stringify(benchPolicy));
  const started = await startServerBin(pwsh, [
    "--simulate",
    "--policy",
    policy,
    "--endpoint-set",
    "default",
    "--endpoint-set",
    "denied",
    "--socket-dir",
    join(dir, "s"),
    "--audit-log",
    join(dir, "audit.jsonl"),
  ]);
  return {
    started,
    socket: started.endpoints["system-v1alpha1"] ?? "",
    deniedSocket: started.endpoints["denied/system-v1alpha1"] ?? "",
  };
}

/** The median `durationMs` of the allowed calls' outcome lines in the audit log, after `skip`. */
function allowedDurationMs(auditLog: string, skip: number): number | undefined {
  const durations = readFileSync(auditLog, "utf8")
    .split("\n")
    .filter((line) => line.includes('"status":"OK"'))
    .slice(skip)
    .map((line) => (JSON.parse(line) as { durationMs?: unknown }).durationMs)
    .filter((ms): ms is number => typeof ms === "number");
  return durations.length === 0 ? undefined : summarise(durations).median;
}

/** Resolves once the call is refused with PERMISSION_DENIED; an answer or another status fails the bench. */
function refusedCall(client: V1Client): () => Promise<void> {
  const call = client.bare("GetBIOSSerialNumber");
  return () =>
    call().then(
      () => Promise.reject(new Error("the denied endpoint set was answered")),
      (error: unknown) =>
        (error as { code?: unknown }).code === status.PERMISSION_DENIED
          ? undefined
          : Promise.reject(error as Error),
    );
}

// The row without its samples.
function rowOf({ name, median, p95, samples, cpu }: Row): Row {
  return { name, median, p95, samples, cpu };
}

/** A row as timed in turns: also the calls that warmed it and its samples. */
interface TimedRow extends Row {
  readonly warmCalls: number;
  readonly raw: readonly number[];
}

/** One measured thing: its row's name and one call of it. */
interface Task {
  readonly name: string;
  readonly call: () => Promise<unknown>;
  readonly samples: number[];
  cpu: CpuSample;
  calls: number;
  warmCalls: number;
}

function task(name: string, call: () => Promise<unknown>): Task {
  return { name, call, samples: [], cpu: { node: 0, children: 0 }, calls: 0, warmCalls: 0 };
}

/**
 * Times the tasks in turns, a batch of each per round, so the load of a shared machine falls on
 * all of them alike rather than on whichever ran while it was busy. CPU is read around each batch;
 * `beforeRound` may adjust a task to what the rounds so far measured.
 */
async function interleaved(
  tasks: readonly Task[],
  beforeRound: (tasks: readonly Task[]) => Promise<void> = () => Promise.resolve(),
): Promise<TimedRow[]> {
  const warmUntil = performance.now() + serverWarmMs;
  while (performance.now() < warmUntil) {
    for (const t of tasks) {
      await Promise.all(Array.from({ length: defaultPowershellPool }, () => t.call()));
      t.warmCalls += defaultPowershellPool;
    }
  }
  for (let round = 0; round < serverRounds; round++) {
    await beforeRound(tasks);
    for (const t of tasks) {
      const before = sampleCpu();
      for (let i = 0; i < serverPerRound; i++) {
        const started = performance.now();
        await t.call();
        t.samples.push(performance.now() - started);
      }
      const spent = cpuBetween(before, sampleCpu());
      t.cpu = { node: t.cpu.node + spent.node, children: t.cpu.children + spent.children };
      t.calls += serverPerRound;
    }
  }
  return tasks.map((t) => {
    const stats = summarise(t.samples);
    return {
      name: t.name,
      median: stats.median,
      p95: stats.p95,
      samples: stats.count,
      cpu: { node: t.cpu.node / t.calls, children: t.cpu.children / t.calls },
      warmCalls: t.warmCalls,
      raw: t.samples,
    };
  });
}

/**
 * GetBIOSSerialNumber through the server and `System.getBiosSerialNumber()` directly, on one
 * arrangement: the library call runs on the server's own simulated node, through a pool of the
 * server's size on the same pwsh; the refused call and a no-op grpc-js server (the floor) are
 * timed in the same rounds.
 */
export async function measureServer(pwsh: string): Promise<ServerResults> {
  const dir = mkdtempSync(join(tmpdir(), "bench-server-"));
  const { started, socket, deniedSocket } = await startBin(pwsh, dir);
  const pid = started.child.pid ?? 0;
  const sim = await Simulator.open(started.simulator.dir);
  const shell = await createSimulatedPowerShell(sim, {
    pwsh: { path: pwsh },
    poolSize: defaultPowershellPool,
  });
  const system = new System({ shell });
  const floorSocket = join(dir, "floor.sock");
  const { child: floorChild } = await spawnReady(floorServer, [floorSocket]);
  // The idle floor's first wait, until the rounds' own library calls set it: every pool process
  // warmed (each compiles a cmdlet on its first use), then the median of a pass one at a time.
  for (let i = 0; i < warmupCalls; i++) {
    await Promise.all(
      Array.from({ length: defaultPowershellPool }, () => system.getBiosSerialNumber()),
    );
  }
  const first: number[] = [];
  for (let i = 0; i < warmupCalls * 2; i++) {
    const started = performance.now();
    await system.getBiosSerialNumber();
    first.push(performance.now() - started);
  }
  let delayMs = Math.max(1, Math.round(summarise(first).median));
  const idleSocket = join(dir, "idle-floor.sock");
  const idleFloor = await spawnReady(
    floorServer,
    [idleSocket, String(delayMs)],
    process.env,
    "pipe",
  );
  const idleChild = idleFloor.child;
  // The wait follows the library call as the rounds time it (one at a time among the other
  // rows, slower than in the pass alone): its median so far, set again before each round.
  const followLibrary = async (library: readonly number[]) => {
    const median = Math.max(1, Math.round(summarise(library).median));
    if (library.length === 0 || median === delayMs) return;
    const set = new Promise((resolve) => idleFloor.lines.once("line", resolve));
    idleChild.stdin?.write(`${median}\n`);
    await set;
    delayMs = median;
  };
  const client = new V1Client(socket, "system", "v1alpha1");
  const deniedClient = new V1Client(deniedSocket, "system", "v1alpha1");
  const floorClient = new V1Client(floorSocket, "system", "v1alpha1");
  const idleClient = new V1Client(idleSocket, "system", "v1alpha1");
  const oldGoClient = new V1Client(deniedSocket, "system", "v1alpha1", {
    "grpc.default_authority": String.raw`\\.\\pipe\\csi-proxy-system-v1alpha1`,
  });
  try {
    const call = client.bare("GetBIOSSerialNumber");
    await call();
    const ready = processMemory(pid);
    const rows = await interleaved(
      [
        task("getBiosSerialNumber, library call (the server's node and pool size)", () =>
          system.getBiosSerialNumber(),
        ),
        task("GetBIOSSerialNumber, v1 client → csi-proxy-server", call),
        task(
          "GetBIOSSerialNumber, refused by the policy (no host call)",
          refusedCall(deniedClient),
        ),
        task(
          "GetBIOSSerialNumber, v1 client → no-op grpc-js server (floor)",
          floorClient.bare("GetBIOSSerialNumber"),
        ),
        task(
          "GetBIOSSerialNumber, refused, :authority as grpc-go ≤ 1.56 sends it (rewritten)",
          refusedCall(oldGoClient),
        ),
        task(
          "GetBIOSSerialNumber, v1 client → grpc-js server answering after the library call's median so far (idle floor)",
          idleClient.bare("GetBIOSSerialNumber"),
        ),
        task(
          "a timer of the same wait in the client, no RPC (the idle floor's own wait)",
          () => new Promise((resolve) => setTimeout(resolve, delayMs)),
        ),
      ],
      (timed) => followLibrary(timed[0]?.samples ?? []),
    );
    const [direct, viaServer, denied, floor, rewritten, delayed, timer] = rows;
    const after = processMemory(pid);
    if (direct === undefined || viaServer === undefined) throw new Error("no rows measured");
    const idle = delayed === undefined || timer === undefined ? undefined : { delayed, timer };
    return {
      direct: rowOf(direct),
      viaServer: rowOf(viaServer),
      denied: denied && rowOf(denied),
      rewritten: rewritten && rowOf(rewritten),
      floor: floor && rowOf(floor),
      ...(idle === undefined
        ? {}
        : {
            idleFloor: { delayed: rowOf(idle.delayed), timer: rowOf(idle.timer), delayMs },
            allowedInterval: bootstrapInterval(
              [viaServer.raw, direct.raw, idle.delayed.raw, idle.timer.raw],
              ([server = NaN, library = NaN, waited = NaN, wait = NaN]) =>
                server - library - (waited - wait),
            ),
          }),
      inServerMs: allowedDurationMs(join(dir, "audit.jsonl"), viaServer.warmCalls + 1),
      warm: { ms: serverWarmMs, calls: Math.min(...rows.map((row) => row.warmCalls)) },
      memory: {
        readyMiB: ready?.rssMiB ?? Number.NaN,
        afterCallsMiB: after?.rssMiB ?? Number.NaN,
        peakMiB: after?.peakMiB ?? Number.NaN,
        calls: viaServer.samples + viaServer.warmCalls + 1,
      },
    };
  } finally {
    client.close();
    deniedClient.close();
    floorClient.close();
    idleClient.close();
    await stopChild(floorChild);
    await stopChild(idleChild);
    await shell.close();
    oldGoClient.close();
    await started.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
