// BENCHMARKS.md from the measured rows: pure formatting, no I/O.
import type { CallTimeRow } from "./call-time.js";
import type { FlowRow } from "./flow.js";
import type { LightThroughputRow } from "./light-throughput.js";
import type { Row } from "./measure.js";
import type { CsiRow, MethodRow, RoundTrips } from "./round-trips.js";
import {
  allowedOverheadTargetMs,
  serverOverheadTargetMs,
  serverPerRound,
  serverRounds,
  type ServerResults,
} from "./server.js";
import type { MemoryRow, StartupRow } from "./startup.js";
import type { StormRow } from "./storm-bench.js";
import type { ThroughputRow } from "./throughput.js";
import { barChart, formatMs, formatRatio, table } from "./markdown.js";
import { callTimeLines, scalingLines } from "./report-performance.js";
import { stormLines, stormVerdicts } from "./report-storm.js";
import { fairnessLines, fairnessVerdict } from "./report-fairness.js";
import type { FairnessRow } from "./fairness.js";

export { barChart, formatMs, formatRatio, table } from "./markdown.js";

/** The machine and run the numbers come from. */
export interface Machine {
  readonly date: string;
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly os: string;
  readonly node: string;
  readonly pwsh: string;
  readonly loadStart: readonly number[];
  readonly loadEnd: readonly number[];
  readonly wallSeconds: number;
}

/** How the CPU accounting behaved during the run (see `cpu.ts`). */
export interface CpuCheck {
  readonly resourceUsageSelf: number;
  readonly cpuUsageSelf: number;
  readonly reapedChildren: number;
}

/** Everything one `pnpm bench` run measured. */
export interface Results {
  readonly machine: Machine;
  readonly trivialScript: string;
  readonly overhead: readonly Row[];
  readonly peerError: string | undefined;
  readonly reads: readonly Row[];
  readonly flow: readonly FlowRow[];
  readonly throughput: readonly ThroughputRow[];
  /** Pool scaling with CPU-light calls (`light-throughput.ts`). */
  readonly lightThroughput?: readonly LightThroughputRow[] | undefined;
  /** Where the time of a warm call goes (`call-time.ts`). */
  readonly callTime?: readonly CallTimeRow[] | undefined;
  readonly startup: readonly StartupRow[];
  readonly memory: readonly MemoryRow[];
  readonly server?: ServerResults | undefined;
  /** The restage storm, serially and at once (`storm-bench.ts`). */
  readonly storm?: readonly StormRow[] | undefined;
  /** One endpoint set's call alone and while another set floods (`fairness.ts`). */
  readonly fairness?: FairnessRow | undefined;
  /** Scripts and cmdlet calls per method and per CSI operation (`round-trips.ts`). */
  readonly roundTrips?: RoundTrips | undefined;
  readonly cpuCheck: CpuCheck;
}

/** A target from the issue, with the measured value. */
export interface Verdict {
  readonly target: string;
  readonly measured: string;
  readonly pass: boolean;
}

const cpuMs = (row: Row) => (row.cpu.node + row.cpu.children) * 1000;

function find<T extends Row>(rows: readonly T[], prefix: string): T | undefined {
  return rows.find((r) => r.name.startsWith(prefix));
}

/** The issue's targets, evaluated on the measured medians and CPU per call. */
export function verdicts(results: Results): Verdict[] {
  const spawn = find(results.overhead, "spawn");
  const out: Verdict[] = [];
  for (const pool of [1, 4]) {
    const session = find(results.overhead, `session, pool ${pool}`);
    if (spawn === undefined || session === undefined) continue;
    const latency = spawn.median / session.median;
    const cpu = cpuMs(spawn) / cpuMs(session);
    out.push({
      target: `per-call overhead, spawn ÷ session pool ${pool} ≥ 50×`,
      measured: `${formatRatio(latency)} (${formatMs(spawn.median)} ms vs ${formatMs(session.median)} ms median)`,
      pass: latency >= 50,
    });
    out.push({
      target: `CPU per call, spawn ÷ session pool ${pool} ≥ 50×`,
      measured: `${formatRatio(cpu)} (${formatMs(cpuMs(spawn))} ms vs ${formatMs(cpuMs(session))} ms)`,
      pass: cpu >= 50,
    });
  }
  const peer = find(results.overhead, "node-powershell");
  const pool1 = find(results.overhead, "session, pool 1");
  const floor = find(results.overhead, "floor:");
  if (floor !== undefined && pool1 !== undefined) {
    const ratio = pool1.median / floor.median;
    out.push({
      target: "session pool 1 per call ≤ 2× the floor (median)",
      measured: `${formatRatio(ratio)} (${formatMs(pool1.median)} ms vs ${formatMs(floor.median)} ms)`,
      pass: ratio <= 2,
    });
  }
  if (peer !== undefined && pool1 !== undefined) {
    out.push({
      target: "session pool 1 no slower than node-powershell (median)",
      measured: `${formatMs(pool1.median)} ms vs ${formatMs(peer.median)} ms (${formatRatio(peer.median / pool1.median)} faster)`,
      pass: pool1.median <= peer.median,
    });
    out.push({
      target: "session pool 1 no more CPU per call than node-powershell",
      measured: `${formatMs(cpuMs(pool1))} ms vs ${formatMs(cpuMs(peer))} ms`,
      pass: cpuMs(pool1) <= cpuMs(peer),
    });
  }
  for (const start of results.startup) {
    // What warmUp() promises: the process start it pays no longer lands on the first call.
    const saved = start.cold.median - start.warmFirst.median;
    out.push({
      target: `warmUp() takes ≥ 80% of its own cost off the first call (${start.name})`,
      measured: `${formatMs(saved)} ms saved of ${formatMs(start.warmUp.median)} ms (first call ${formatMs(start.warmFirst.median)} ms vs ${formatMs(start.cold.median)} ms cold, median)`,
      pass: saved >= 0.8 * start.warmUp.median,
    });
  }
  out.push(...scalingVerdicts(results.lightThroughput ?? []));
  if (results.roundTrips !== undefined) out.push(...roundTripVerdicts(results.roundTrips));
  out.push(...serverVerdicts(results.server), ...stormVerdicts(results.storm));
  if (results.fairness !== undefined) out.push(fairnessVerdict(results.fairness));
  return out;
}

/** Issue 18 item 3: a second process nearly doubles the throughput of calls that wait. */
export function scalingVerdicts(rows: readonly LightThroughputRow[]): Verdict[] {
  const waiting = rows.filter((r) => r.call.startsWith("waits"));
  const one = waiting.find((r) => r.poolSize === 1);
  const two = waiting.find((r) => r.poolSize === 2);
  if (one === undefined || two === undefined) return [];
  const ratio = two.callsPerSecond / one.callsPerSecond;
  return [
    {
      target: "pool 2 ≥ 1.6× the throughput of pool 1, CPU-light calls",
      measured: `${formatRatio(ratio)} (${two.callsPerSecond.toFixed(0)} vs ${one.callsPerSecond.toFixed(0)} calls/s; a call that ${one.call.split(",")[0] ?? one.call})`,
      pass: ratio >= 1.6,
    },
  ];
}

const methodName = (r: MethodRow) => `${r.group}.${r.method}`;

/** The issue's round-trip targets (issue 18, item 1), evaluated on the counted rows. */
export function roundTripVerdicts(rt: RoundTrips): Verdict[] {
  const out: Verdict[] = [];
  for (const path of ["common", "already done"] as const) {
    const rows = rt.methods.filter((r) => r.path === path);
    const over = rows.filter((r) => r.scripts > 1);
    out.push({
      target: `every method makes ≤ 1 script on its ${path} path`,
      measured:
        over.length === 0
          ? `all ${rows.length} methods`
          : `${over.length} of ${rows.length} methods over: ${over.map((r) => `${methodName(r)} ${r.scripts}`).join(", ")}`,
      pass: over.length === 0,
    });
  }
  const scripts = rt.methods.flatMap((r) => r.traces);
  const repeated = rt.methods.filter((r) => r.repeats > 0);
  out.push({
    target: "no cmdlet query repeated within one script when its first answer serves",
    measured:
      repeated.length === 0
        ? `no repeat in ${scripts.length} scripts (same \`Get-*\`, parameters and piped object, nothing changed in between)`
        : `repeats in ${repeated.map((r) => `${methodName(r)} (${r.path}) ${r.repeats}`).join(", ")}`,
    pass: repeated.length === 0,
  });
  const stage = (path: CsiRow["path"]) =>
    rt.csi.find((r) => r.operation.startsWith("NodeStage, block") && r.path === path);
  const cold = stage("common");
  if (cold !== undefined) {
    out.push({
      target: "cold iSCSI NodeStage ≤ 12 scripts",
      measured: `${cold.scripts} scripts (upstream v1: ${cold.upstreamScripts} processes)`,
      pass: cold.scripts <= 12,
    });
    out.push({
      target: "cold iSCSI NodeStage ≤ 30 cmdlet calls",
      measured: `${cold.cmdlets} cmdlet calls`,
      pass: cold.cmdlets <= 30,
    });
  }
  const retry = stage("already done");
  if (retry !== undefined) {
    out.push({
      target: "retrying a staged iSCSI volume (NodeStage again) ≤ 6 scripts",
      measured: `${retry.scripts} scripts, ${retry.cmdlets} cmdlet calls (upstream v1: ${retry.upstreamScripts} processes)`,
      pass: retry.scripts <= 6,
    });
  }
  return out;
}

/** The "Round trips per operation" section; empty when the run did not count them. */
export function roundTripLines(rt: RoundTrips | undefined): string[] {
  if (rt === undefined) return [];
  const keys = [...new Set(rt.methods.map(methodName))];
  const cell = (r: MethodRow | undefined) =>
    r === undefined ? ["—", "—"] : [String(r.scripts), String(r.cmdlets)];
  const methodRows = keys.map((key) => {
    const of = rt.methods.filter((r) => methodName(r) === key);
    const common = of.find((r) => r.path === "common");
    const done = of.find((r) => r.path === "already done");
    const scripts = (common?.traces ?? []).map((t) => `\`${t.script}\``).join(", ");
    return [
      key,
      ...cell(common),
      ...cell(done),
      of.map((r) => `${r.repeats} / ${r.repeatsAcross}`).join("; "),
      scripts,
    ];
  });
  const steps = (r: CsiRow) =>
    r.steps
      .map((s) => (s.scripts === 0 ? `${s.call} (Node)` : `${s.call} ${s.scripts}/${s.cmdlets}`))
      .join(", ");
  return [
    "## Round trips per operation",
    "",
    "What a driver feels on Windows is how many round trips an operation makes: every Storage, SMB and iSCSI cmdlet is a CIM query or method (tens to hundreds of ms each). Counted on the simulator (`src/round-trips.ts`, `scenarios.demoNode()`, one session process): **scripts** are the exec core's calls (`subscribeExec(\"start\")`), one PowerShell round trip each; **cmdlet calls** are the simulator's call log (`calls.jsonl`; simulated Storage, SMB, iSCSI and service cmdlets, `Get-Item`/`Test-Path` where the simulator stands in for them; not `ConvertTo-Json`, `Where-Object` and the like). The call log has no script id: with one process and one call at a time, the entries logged between a script's start and end events are that script's.",
    "",
    "Repeated queries: the same `Get-*` cmdlet with the same parameters and piped object while no state-changing cmdlet ran in between, so its first answer would have served; counted within one script / across the method's scripts in order (a re-check under a lock across scripts can be deliberate). The filesystem group runs in Node (no PowerShell) and has no rows.",
    "",
    ...table(
      [
        "method",
        "common: scripts",
        "common: cmdlet calls",
        "already done: scripts",
        "already done: cmdlet calls",
        "repeated queries (in a script / across)",
        "scripts of the common path",
      ],
      ["l", "r", "r", "r", "r", "l", "l"],
      methodRows,
    ),
    "",
    'Per CSI operation, as `examples/driver-node` and the demo compose the groups: NodeStage block is the issue\'s cold iSCSI stage (service check, portal, CHAP login, find the disk, online, partition, list volumes, format, mkdir, mount); "already done" runs the operation again on the host it left, as kubelet retries. Upstream v1 ran one `powershell` process per host call (one cmdlet pipeline), for the calls democratic-csi makes (shared/reference/csi-proxy-v1-server.md § 1.4; the commands in csi-proxy-api.md §§ 1.2, 2.2–2.3, 3.3, 4.3–4.4, 5.2). Steps show scripts/cmdlet calls; "(Node)" makes no script.',
    "",
    ...table(
      ["operation", "path", "scripts", "cmdlet calls", "upstream v1 processes", "steps"],
      ["l", "l", "r", "r", "r", "l"],
      rt.csi.map((r) => [
        r.operation,
        r.path,
        String(r.scripts),
        String(r.cmdlets),
        `${r.upstreamScripts} (${r.upstreamNote})`,
        steps(r),
      ]),
    ),
  ];
}

function startupLines(results: Results): string[] {
  const q = (x: { median: number; p95: number }) => `${formatMs(x.median)} / ${formatMs(x.p95)}`;
  return [
    "## Start-up and the first call",
    "",
    "Fresh session shells, one process each. Cold: `createPowerShell()` to the first result. Warm: `warmUp()` at start-up, then the first call. Times are median / p95 in ms. `warmUp()` pays the process start and the module import; the first call of a group still pays its scripts' first compilation and the first use of the module's commands (with the simulator, its cmdlets' first run), which one cheap read at start-up also takes off. On Windows, importing the Storage module adds to the start (not measured here).",
    "",
    ...table(
      ["shell", "cold first call", "warmUp()", "first call after warmUp()", "samples"],
      ["l", "r", "r", "r", "r"],
      results.startup.map((r) => [
        r.name,
        q(r.cold),
        q(r.warmUp),
        q(r.warmFirst),
        String(r.samples),
      ]),
    ),
    "",
    "## Memory per PowerShell process",
    "",
    "Resident memory of one session process (`VmRSS`, and its peak `VmHWM`, from /proc), right after `warmUp()` and after a run of calls. A pool of N holds N of these; `idleTimeoutMs` closes idle ones unless `keepWarm` keeps them.",
    "",
    ...table(
      ["process", "started (MiB)", "after calls (MiB)", "peak (MiB)", "calls"],
      ["l", "r", "r", "r", "r"],
      results.memory.map((r) => [
        r.name,
        r.startedMiB.toFixed(1),
        r.steadyMiB.toFixed(1),
        r.peakMiB.toFixed(1),
        String(r.calls),
      ]),
    ),
    ...serverLines(results.server),
    ...stormLines(results.storm),
    ...fairnessLines(results.fairness),
  ];
}

function serverLines(server: ServerResults | undefined): string[] {
  if (server === undefined) return [];
  const overhead = server.viaServer.median - server.direct.median;
  const m = server.memory;
  return [
    "",
    "## The server (`@csi-proxy/server`)",
    "",
    "The same read on one simulated node (`scenarios.demoNode()`): called on the library through a pool of the server's size, and called by a v1 gRPC client (`@grpc/grpc-js` dynamic client) through `csi-proxy-server --simulate` on its Unix socket, under a policy that grants that one RPC to the default endpoint set, which adds the HTTP/2 round trip, the policy decision, an audit line and the status mapping.",
    "",
    ...table(rowHeader, rowAlign, [
      rowCells(server.direct, undefined),
      rowCells(server.viaServer, undefined),
      ...[
        server.denied,
        server.rewritten,
        server.floor,
        server.idleFloor?.delayed,
        server.idleFloor?.timer,
      ].flatMap((r) => (r === undefined ? [] : [rowCells(r, undefined)])),
    ]),
    "",
    `Per-RPC overhead of the server over the library call: ${formatMs(overhead)} ms (median minus median).`,
    ...floorLines(server, overhead),
    "",
    ...table(
      ["process", "ready (MiB)", "after calls (MiB)", "peak (MiB)", "calls"],
      ["l", "r", "r", "r", "r"],
      [
        [
          "csi-proxy-server (Node only)",
          m.readyMiB.toFixed(1),
          m.afterCallsMiB.toFixed(1),
          m.peakMiB.toFixed(1),
          String(m.calls),
        ],
      ],
    ),
  ];
}

/** Issue #37's target on the allowed call: what the server adds to the library call, less gRPC. */
export function serverVerdicts(server: ServerResults | undefined): Verdict[] {
  const floor = allowedFloor(server);
  if (server === undefined || floor === undefined) return [];
  const own = server.viaServer.median - server.direct.median - floor.ms;
  return [
    {
      target: `allowed RPC − library call − ${floor.name} ≤ ${formatMs(allowedOverheadTargetMs)} ms (median, one arrangement)`,
      measured: `${formatMs(own)} ms (${formatMs(server.viaServer.median)} − ${formatMs(server.direct.median)} − ${formatMs(floor.ms)} ms${intervalNote(server)})`,
      pass: own <= allowedOverheadTargetMs,
    },
  ];
}

// The 90% interval of the allowed call's figure, when the run has one.
function intervalNote(server: ServerResults): string {
  const interval = server.allowedInterval;
  return interval === undefined
    ? ""
    : `; 90% interval ${formatMs(interval.low)} to ${formatMs(interval.high)} ms`;
}

/**
 * The RPC's own cost under an allowed call: the idle floor (a no-op server answering after the
 * library call's time, less that wait timed in the client alone) when measured, else the floor.
 */
function allowedFloor(
  server: ServerResults | undefined,
): { readonly name: string; readonly ms: number } | undefined {
  const idle = server?.idleFloor;
  if (idle !== undefined)
    return { name: "idle floor", ms: idle.delayed.median - idle.timer.median };
  return server?.floor === undefined ? undefined : { name: "floor", ms: server.floor.median };
}

// The server's own work is a refused call less gRPC's own round trip: no PowerShell in either.
function floorLines(server: ServerResults, overhead: number): string[] {
  if (server.floor === undefined || server.denied === undefined) return [];
  const floor = server.floor.median;
  const own = server.denied.median - floor;
  const met = own <= serverOverheadTargetMs;
  return [
    "",
    `The floor is the same RPC on the same kind of socket from the same client, answered at once by a bare \`@grpc/grpc-js\` server in a process of its own (as the server is): ${formatMs(floor)} ms median. The refused row is the same RPC on an endpoint set the policy grants nothing: identity, policy decision, audit line and status mapping, and no host call. The server's own work per RPC is the refused row less the floor: **${formatMs(own)} ms** against a target of ≤ ${formatMs(serverOverheadTargetMs)} ms median, ${met ? "met" : "**not met** in this run"}. The allowed call less the library call less the floor: **${formatMs(overhead - floor)} ms**, the same work plus the group call's dispatch in the server and the allowed call's audit and log lines. The rows are timed in turns (${serverRounds} rounds of ${serverPerRound} calls each${warmNote(server)}), the library call on the server's own simulated node through a pool of the server's size, so load on a shared machine falls on all of them alike: before they were (issue #37), the library row ran first on a node and pool of its own, and 1.7 to 3.7 ms of "overhead" was the difference between two arrangements and two moments of a busy machine, not the server's work.`,
    ...idleFloorLines(server),
    ...rewriteLines(server),
  ];
}

// The interval in words: a difference of three medians of wide samples moves from run to run.
function intervalSentence(server: ServerResults): string {
  const interval = server.allowedInterval;
  if (interval === undefined) return ".";
  return `; resampling the four rows gives a 90% interval of ${formatMs(interval.low)} to ${formatMs(interval.high)} ms, since each row is a median of samples that spread over several milliseconds (PowerShell's own time varies most).`;
}

// How every row was warmed before the rounds.
function warmNote(server: ServerResults): string {
  const warm = server.warm;
  if (warm === undefined) return "";
  return `, after every row ran for ${Math.round(warm.ms / 1000)} s in turns, a pool's worth of calls at once, ${warm.calls} calls or more each: a process that has served a few dozen calls is still compiling its code on the cores PowerShell needs, and a node's server runs for days`;
}

// Why the allowed call is held against the idle floor, and where its time goes.
function idleFloorLines(server: ServerResults): string[] {
  const idle = server.idleFloor;
  if (idle === undefined || server.floor === undefined) return [];
  const idleFloor = idle.delayed.median - idle.timer.median;
  const own = server.viaServer.median - server.direct.median - idleFloor;
  const lines = [
    "",
    `An RPC that waits for a host call costs more than the floor's, which is timed back to back: the idle floor is the no-op server answering after the library call's median so far (taken from the rounds and set again before each, ${idle.delayMs} ms in the last) less a timer of the same wait in the client alone, **${formatMs(idleFloor)} ms** against the floor's ${formatMs(server.floor.median)} ms. Both processes sleep through the wait, and waking the server and then the client again is the difference (on this virtual machine about a millisecond); any server in a process of its own pays it, upstream's v1 too. Against it, the allowed call less the library call costs **${formatMs(own)} ms** (target ≤ ${formatMs(allowedOverheadTargetMs)} ms)${intervalSentence(server)}`,
  ];
  if (server.inServerMs !== undefined) {
    const inside = server.inServerMs - server.direct.median;
    const wire = server.viaServer.median - server.inServerMs;
    lines.push(
      "",
      `Where it goes: the server's audit log times each allowed call from its handler's start to its answer, ${formatMs(server.inServerMs)} ms median, so **${formatMs(inside)} ms** of the call is the server's own work around the library call (identity, policy decision, the allow and outcome lines, the group's dispatch and the call's deadline and cancellation wiring) and ${formatMs(wire)} ms is the wire, against the idle floor's ${formatMs(idleFloor)} ms (the connection guard's JavaScript hop included).`,
    );
  }
  return lines;
}

// What serving grpc-go up to 1.56 costs: its :authority rewritten, the client's HPACK table followed.
function rewriteLines(server: ServerResults): string[] {
  if (server.rewritten === undefined || server.denied === undefined) return [];
  const extra = server.rewritten.median - server.denied.median;
  return [
    "",
    `The rewritten row is the refused row from a client whose \`:authority\` nghttp2 refuses, as grpc-go up to 1.56 sends upstream's pipe target (\`\\\\.\\\\pipe\\\\csi-proxy-…\`): the server follows that client's HPACK table and rewrites the field on every connection where it was ever refused (\`packages/server/src/wire/\`). It costs ${formatMs(extra)} ms per call over the refused row (median minus median). Every connection, on a Unix socket or a pipe, passes the server's connection guard in JavaScript: on a pipe its bytes always went through JavaScript (\`PipeDuplex\`); on a Unix socket the guard moves the HTTP/2 session off the socket's native handle onto Node's JavaScript stream, a hop the refused row includes and the floor does not.`,
  ];
}

function rowCells(row: Row, baseline: Row | undefined): string[] {
  return [
    row.name,
    formatMs(row.median),
    formatMs(row.p95),
    String(row.samples),
    formatMs(row.cpu.node * 1000),
    formatMs(row.cpu.children * 1000),
    formatMs(cpuMs(row)),
    baseline === undefined ? "—" : formatRatio(baseline.median / row.median),
  ];
}

const rowHeader = [
  "operation",
  "median (ms)",
  "p95 (ms)",
  "samples",
  "CPU Node (ms/op)",
  "CPU PowerShell (ms/op)",
  "CPU total (ms/op)",
  "spawn ÷ this (median)",
];
const rowAlign = ["l", "r", "r", "r", "r", "r", "r", "r"] as const;

function machineLines(m: Machine): string[] {
  const load = (l: readonly number[]) => l.map((v) => v.toFixed(2)).join(" / ");
  return [
    `- Date: ${m.date}; the measurements of this \`pnpm bench\` took ${m.wallSeconds.toFixed(0)} s (PowerShell provisioning and the build not included).`,
    `- CPU: ${m.cores} × ${m.cpu}; memory ${m.memoryGiB} GiB; ${m.os}.`,
    `- Node ${m.node}; PowerShell ${m.pwsh} (the repository's provisioned pwsh, on .NET).`,
    `- Load average (1/5/15 min) at start ${load(m.loadStart)}, at end ${load(m.loadEnd)}. Other work on a shared machine shows up in every number: compare rows of one run, not runs.`,
  ];
}

function methodLines(results: Results): string[] {
  const c = results.cpuCheck;
  return [
    "## Method",
    "",
    "- Latency: [tinybench](https://github.com/tinylibs/tinybench) 6, one task per row, samples retained; median and p95 by linear interpolation over the samples (`src/stats.ts`). Warmup calls are not sampled. Session rows run on warm pools (every process started before measuring). Nothing here is a timed test.",
    "- Spawn mode is upstream's model: one `pwsh` per call. Its rows have few samples (each call starts a .NET runtime and, on the simulator, imports the WinSim module), so their p95 is close to their maximum.",
    `- node-powershell: the trivial script is sent as \`& { ${results.trivialScript} } -Name 'x'\` to one persistent \`pwsh -NoLogo -NoProfile -NonInteractive -NoExit -Command -\` (same executable), with \`TERM=dumb\` in its environment: without it pwsh's console writes \`ESC[?1h\` right after the closing delimiter, in the same chunk, and child-shell 5.0.0 (node-powershell's engine) only looks for the delimiter at the very end of a chunk, so about one call in a hundred never resolves. It returns raw console text; the exec core binds parameters, serialises results with \`ConvertTo-Json\` and frames requests in base64, so it does more per call.`,
    "- CPU: Node's own time from `process.cpuUsage()`, PowerShell's from `/proc`: every live descendant's `utime+stime+cutime+cstime` plus `/proc/self/stat` fields 16–17 (`cutime`, `cstime`), which accumulate children that have exited and been reaped — spawn mode's processes. A child's time moves from the live sum to `cutime` when it exits, so differences stay exact. Per-call rows read CPU around the whole task (warmup included) and divide by the calls made; flow rows read it around each flow only. Resolution is one clock tick (10 ms), spread over many calls.",
    `- Check of that method in this run (overhead section): \`process.resourceUsage()\` grew by ${c.resourceUsageSelf.toFixed(2)} s and \`process.cpuUsage()\` by ${c.cpuUsageSelf.toFixed(2)} s — both count only Node itself on Linux (RUSAGE_SELF) — while \`cutime+cstime\` grew by ${c.reapedChildren.toFixed(2)} s of exited PowerShell processes. So \`process.resourceUsage()\` cannot see spawn mode's children; \`/proc/self/stat\` can.`,
    "- Reads and throughput run on the simulator (`packages/winsim`, `scenarios.demo()`, disk 1's volume mounted under the sandbox); the flow is the demo's `runLifecycle` on a fresh `Simulator` per iteration with the demo's pool of 2. Host creation, pool start-up and disposal are outside the timed region (tinybench `overriddenDuration`).",
  ];
}

/** The whole BENCHMARKS.md. */
export function renderReport(results: Results): string {
  const spawnOverhead = find(results.overhead, "spawn");
  const v = verdicts(results);
  const lines: string[] = [
    "# Benchmarks",
    "",
    "Regenerated by `pnpm bench` (`tools/bench`); do not edit by hand. Real PowerShell 7 on Linux runs the library's real scripts; reads and the flow run against the simulated Windows host.",
    "",
    ...machineLines(results.machine),
    "",
    "## Targets",
    "",
    ...table(
      ["target", "measured", "result"],
      ["l", "l", "l"],
      v.map((x) => [x.target, x.measured, x.pass ? "pass" : "**fail**"]),
    ),
    "",
    "## Per-call overhead of a trivial script",
    "",
    `Script: \`${results.trivialScript}\` with \`Name = "x"\`, called one at a time.`,
    "",
    ...table(
      rowHeader,
      rowAlign,
      results.overhead.map((r) => rowCells(r, spawnOverhead)),
    ),
    "",
    ...(results.peerError === undefined
      ? []
      : [`node-powershell could not be measured: ${results.peerError}`, ""]),
    ...barChart(
      "Trivial script, median ms per call (lower is better)",
      "ms",
      results.overhead.map((r) => ({ label: r.name.split(" (")[0] ?? r.name, value: r.median })),
    ),
    "",
    ...callTimeLines(results.callTime),
    "",
    "## Typical read calls",
    "",
    "One at a time on the simulated host; session mode with a warm pool of 1.",
    "",
    ...table(
      rowHeader,
      rowAlign,
      results.reads.map((r) =>
        rowCells(r, find(results.reads, `${r.name.split(",")[0] ?? ""}, spawn`)),
      ),
    ),
    "",
    "## Full stage/unstage flow of the demo",
    "",
    "The demo's `runLifecycle` (iSCSI login, partition, format, mount, resize, SMB mapping, links, then teardown) with the demo's pool of 2. Spawn mode runs as many flows as start within 60 s (at least one), so that `pnpm bench` stays within minutes.",
    "",
    ...table(
      [
        "flow",
        "calls per flow",
        "median (s)",
        "p95 (s)",
        "samples",
        "CPU total (s/flow)",
        "spawn ÷ this (median)",
        "spawn ÷ this (CPU)",
      ],
      ["l", "r", "r", "r", "r", "r", "r", "r"],
      results.flow.map((r) => {
        const spawn = find(results.flow, "stage/publish/unstage flow, spawn");
        return [
          r.name,
          String(r.callsPerFlow),
          (r.median / 1000).toFixed(2),
          (r.p95 / 1000).toFixed(2),
          String(r.samples),
          (r.cpu.node + r.cpu.children).toFixed(2),
          spawn === undefined ? "—" : formatRatio(spawn.median / r.median),
          spawn === undefined ? "—" : formatRatio(cpuMs(spawn) / cpuMs(r)),
        ];
      }),
    ),
    "",
    ...startupLines(results),
    "",
    ...(results.roundTrips === undefined ? [] : [...roundTripLines(results.roundTrips), ""]),
    "## Throughput: 100 concurrent getVolumeStats calls",
    "",
    `Each sample is one batch of 100 calls issued at once on a warm session pool. Extra processes help only while cores are free: this machine has ${results.machine.cores}, and every simulated cmdlet that changes the host takes the simulator's lock (queries read a snapshot without it).`,
    "",
    ...table(
      ["pool", "batch median (ms)", "batch p95 (ms)", "batches", "calls/s", "CPU total (ms/call)"],
      ["l", "r", "r", "r", "r", "r"],
      results.throughput.map((r) => [
        String(r.poolSize),
        formatMs(r.median),
        formatMs(r.p95),
        String(r.samples),
        r.callsPerSecond.toFixed(0),
        formatMs(cpuMs(r)),
      ]),
    ),
    "",
    ...barChart(
      "100 concurrent getVolumeStats, calls per second (higher is better)",
      "calls/s",
      results.throughput.map((r) => ({ label: `pool ${r.poolSize}`, value: r.callsPerSecond })),
    ),
    "",
    ...scalingLines(results.lightThroughput, results.machine.cores),
    "",
    ...methodLines(results),
    "",
  ];
  return lines.join("\n");
}
