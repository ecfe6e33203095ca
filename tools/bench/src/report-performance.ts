// The BENCHMARKS.md sections on where a call's time goes and how pools scale (issue #18 items 2–3).
import type { CallTimeRow } from "./call-time.js";
import type { LightThroughputRow } from "./light-throughput.js";
import { formatMs, formatRatio, table } from "./markdown.js";

const ms = (seconds: number) => formatMs(seconds * 1000);

// Measured once while the transport was rebuilt (issue #18 item 2); a bench run cannot rebuild
// the old code, so these rows are a record, kept beside the live rows above them.
const history: readonly (readonly string[])[] = [
  [
    "before (7a745c9): helper functions, `New-Object` list + `ForEach-Object` per call, JSON request, result wrapped in an object",
    "0.96–0.99",
    "0.58",
  ],
  [
    "`@(...)` collects the output instead of `New-Object` + `ForEach-Object`",
    "0.60–0.62",
    "0.38–0.39",
  ],
  ["the loop inline: no helper-function calls per request", "0.43–0.44", "0.27–0.30"],
  [
    "string parameters as base64 pairs (no `ConvertFrom-Json` for them), result serialised without a wrapper",
    "0.20–0.25",
    "0.13–0.14",
  ],
  [
    "as shipped: preferences from enum values, only host output redirected per call, each output object unwrapped by `List.Add` as before",
    "0.21–0.22",
    "0.12–0.15",
  ],
];

/** The "Where the time of a call goes" section; empty when the run did not measure it. */
export function callTimeLines(rows: readonly CallTimeRow[] | undefined): string[] {
  if (rows === undefined || rows.length === 0) return [];
  return [
    "## Where the time of a call goes",
    "",
    "The trivial script, one warm process, one call at a time, with .NET's default settings and with the settings exec gives its processes (`dotnetRuntimeDefaults`). PowerShell's CPU is split by thread from `/proc/<pid>/task`: the pipeline thread runs the host loop and the script; .NET's tiered-compilation worker re-compiles and, with dynamic PGO, re-instruments the code PowerShell generates for every command it runs, on every call. With dynamic PGO off it does a fraction of that work: PowerShell's CPU per call and the p95 about halve. The medians move less, as every row here has a second of warm-up; a new process's first seconds of calls run at about half the latency with PGO off (0.06 against 0.14 ms after a 20-call warm-up, measured while making the change). The floor runs two commands per call and gains little.",
    "",
    ...table(
      [
        "row",
        "median (ms)",
        "p95 (ms)",
        "CPU Node (ms/call)",
        "CPU pipeline thread (ms/call)",
        "CPU tiering worker (ms/call)",
        "CPU other threads (ms/call)",
      ],
      ["l", "r", "r", "r", "r", "r", "r"],
      rows.map((r) => [
        r.name,
        formatMs(r.median),
        formatMs(r.p95),
        ms(r.cpu.node),
        ms(r.threads.pipeline),
        ms(r.threads.tiering),
        ms(r.threads.other),
      ]),
    ),
    "",
    "Before and after the rebuild of the transport (issue #18), measured on this machine on 2026-12-04 and not re-measured by this run. PowerShell side alone: a bare Node driver writes request lines to each version of the host script and waits for each answer (2000 calls after 300 warm-up ones, median ms, two runs each; the cost each step removed shows best with .NET's defaults). In-loop `Stopwatch` timings of the old loop put the time in PowerShell plumbing, not in the script: building the output list with `New-Object` (the slowest single step), the `ForEach-Object` pipeline, five helper-function calls (`Read-CsiFrame`, `Invoke-CsiRequest`, `Reset-CsiPreference`, `ConvertFrom-CsiWire`, `Write-CsiFrame`), `ConvertFrom-Json` of every request and three redirected streams.",
    "",
    ...table(["host loop", ".NET defaults", "DOTNET_TieredPGO=0"], ["l", "r", "r"], history),
    "",
    "The whole call through `shell.run` (tinybench median after a second of warm-up, the old and new exec side by side in one run, two rounds): 0.87–0.94 ms before and 0.064–0.067 ms after with .NET's defaults; 0.35–0.37 ms before and 0.059–0.065 ms after with dynamic PGO off, against a floor of 0.043–0.045 ms. PowerShell's CPU per call went from 1.27–1.33 ms to 0.064–0.072 ms, Node's from 0.12–0.20 ms to 0.034–0.049 ms; `node --cpu-prof` of 10 000 calls puts what is left in exec's own code (about 28 µs per call: options, parameter encoding, the request line, decoding), the stdin write (about 13 µs) and garbage collection (about 7 µs). End and error events are now built only when a diagnostics channel has a subscriber.",
  ];
}

/** The pool-scaling section; empty when the run did not measure it. */
export function scalingLines(
  rows: readonly LightThroughputRow[] | undefined,
  cores: number,
): string[] {
  if (rows === undefined || rows.length === 0) return [];
  const calls = [...new Set(rows.map((r) => r.call))];
  const base = (r: LightThroughputRow) =>
    rows.find((x) => x.call === r.call && x.poolSize === 1)?.callsPerSecond ?? Number.NaN;
  const of = (call: string, pool: number) =>
    rows.find((r) => r.call === call && r.poolSize === pool);
  const notes = calls.flatMap((call) => {
    const one = of(call, 1);
    const two = of(call, 2);
    if (one === undefined || two === undefined) return [];
    return [
      `- ${call.split(",")[0] ?? call}: pool 1 keeps ${one.coresBusy.toFixed(2)} of ${cores} cores busy, pool 2 ${two.coresBusy.toFixed(2)}, for ${formatRatio(two.callsPerSecond / one.callsPerSecond)} the calls per second.`,
    ];
  });
  return [
    "## Pool scaling with CPU-light calls",
    "",
    "Each sample is one batch issued at once on a warm session pool (100 waiting calls, 1000 trivial ones). A real Storage, SMB or iSCSI cmdlet mostly waits for its CIM provider, which the waiting call stands in for. Cores busy: Node's and PowerShell's CPU over the wall time of the same batches.",
    "",
    ...table(
      [
        "call",
        "pool",
        "batch median (ms)",
        "calls/s",
        "÷ pool 1",
        "CPU total (ms/call)",
        "cores busy",
      ],
      ["l", "r", "r", "r", "r", "r", "r"],
      rows.map((r) => [
        r.call,
        String(r.poolSize),
        formatMs(r.median),
        r.callsPerSecond.toFixed(0),
        formatRatio(r.callsPerSecond / base(r)),
        ms(r.cpu.node + r.cpu.children),
        r.coresBusy.toFixed(2),
      ]),
    ),
    "",
    ...notes,
    "",
    `The bound is the cores. Calls that wait scale with the pool until their CPU fills the machine; a trivial call is CPU-bound already at pool 1 (Node's event loop and the pipeline thread take turns on one request), so a second process can only use what is left of ${cores} cores, and more processes than cores only add contention. Recommended \`poolSize\`: the number of operations a driver expects in flight at once (kubelet runs several NodeStage/NodePublish calls in parallel), about the node's core count, and no more than 4 on a 2-core node; each process holds the memory shown above.`,
  ];
}
