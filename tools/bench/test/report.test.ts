import { describe, expect, it } from "vitest";
import type { CallTimeRow } from "../src/call-time.js";
import type { FlowRow } from "../src/flow.js";
import type { LightThroughputRow } from "../src/light-throughput.js";
import type { Row } from "../src/measure.js";
import {
  barChart,
  formatMs,
  formatRatio,
  renderReport,
  table,
  verdicts,
  type Results,
} from "../src/report.js";
import type { ThroughputRow } from "../src/throughput.js";
import type { StormRow } from "../src/storm-bench.js";

const row = (name: string, median: number, cpuSeconds: number): Row => ({
  name,
  median,
  p95: median * 1.5,
  samples: 10,
  cpu: { node: cpuSeconds / 4, children: (cpuSeconds * 3) / 4 },
});

function results(sessionMs: number, peerMs: number): Results {
  const flow: FlowRow = { ...row("stage/publish/unstage flow, session", 900, 1), callsPerFlow: 60 };
  const throughput: ThroughputRow = {
    ...row("100 concurrent getVolumeStats, pool 2", 500, 0.001),
    poolSize: 2,
    callsPerSecond: 200,
  };
  return {
    machine: {
      date: "2026-01-01T00:00:00Z",
      cpu: "Test CPU",
      cores: 2,
      memoryGiB: 8,
      os: "Linux 6.1",
      node: "v20.20.0",
      pwsh: "7.6.9",
      loadStart: [1, 2, 3],
      loadEnd: [1, 2, 3],
      wallSeconds: 300,
    },
    trivialScript: "param([string]$Name) $Name",
    overhead: [
      row("spawn (process per call)", 2000, 1),
      row("session, pool 1", sessionMs, 0.002),
      row("session, pool 4", sessionMs, 0.002),
      row("node-powershell 5.0.1 (one persistent pwsh)", peerMs, 0.01),
    ],
    peerError: undefined,
    reads: [row("getVolumeStats, spawn", 3000, 1.2), row("getVolumeStats, session", 20, 0.02)],
    flow: [flow],
    throughput: [throughput],
    startup: [
      {
        name: "pwsh, no module",
        cold: { median: 600, p95: 700 },
        warmUp: { median: 590, p95: 690 },
        warmFirst: { median: sessionMs * 5, p95: sessionMs * 6 },
        samples: 6,
      },
    ],
    memory: [{ name: "pwsh, no module", startedMiB: 90, steadyMiB: 95.5, peakMiB: 99, calls: 200 }],
    cpuCheck: { resourceUsageSelf: 0.5, cpuUsageSelf: 0.5, reapedChildren: 12 },
  };
}

describe("formatting", () => {
  it("formats milliseconds by size", () => {
    expect(formatMs(1234.5)).toBe("1235");
    expect(formatMs(12.345)).toBe("12.3");
    expect(formatMs(1.2345)).toBe("1.23");
    expect(formatMs(Number.NaN)).toBe("—");
  });

  it("formats ratios", () => {
    expect(formatRatio(412.4)).toBe("412×");
    expect(formatRatio(2.25)).toBe("2.3×");
    expect(formatRatio(Number.POSITIVE_INFINITY)).toBe("—");
  });

  it("builds a Markdown table with alignment", () => {
    expect(table(["a", "b"], ["l", "r"], [["x", "1"]])).toEqual([
      "| a | b |",
      "| --- | ---: |",
      "| x | 1 |",
    ]);
  });

  it("builds a Mermaid bar chart without quotes in labels", () => {
    const chart = barChart('t "q"', "ms", [
      { label: 'a"b', value: 10 },
      { label: "c", value: Number.NaN },
    ]);
    expect(chart).toEqual([
      "```mermaid",
      "xychart-beta",
      '  title "t q"',
      '  x-axis ["ab", "c"]',
      '  y-axis "ms" 0 --> 11',
      "  bar [10, 0]",
      "```",
    ]);
  });
});

describe("verdicts", () => {
  it("passes when session is 50× cheaper than spawn and faster than node-powershell", () => {
    const v = verdicts(results(2, 100));
    expect(v).toHaveLength(7);
    expect(v.every((x) => x.pass)).toBe(true);
  });

  it("fails honestly when a target is missed", () => {
    const v = verdicts(results(200, 100));
    const failed = v.filter((x) => !x.pass).map((x) => x.target);
    expect(failed).toContain("per-call overhead, spawn ÷ session pool 1 ≥ 50×");
    expect(failed).toContain("session pool 1 no slower than node-powershell (median)");
    expect(failed).toContain(
      "warmUp() takes ≥ 80% of its own cost off the first call (pwsh, no module)",
    );
  });
});

describe("renderReport", () => {
  it("has the machine, every section, the charts and the method", () => {
    const text = renderReport(results(2, 100));
    for (const heading of [
      "## Targets",
      "## Per-call overhead of a trivial script",
      "## Typical read calls",
      "## Full stage/unstage flow of the demo",
      "## Start-up and the first call",
      "## Memory per PowerShell process",
      "## Throughput: 100 concurrent getVolumeStats calls",
      "## Method",
    ])
      expect(text).toContain(heading);
    expect(text).toContain("2 × Test CPU");
    expect(text).toContain("| getVolumeStats, session | 20.0 | 30.0 | 10 |");
    expect(text).toContain(
      "| stage/publish/unstage flow, session | 60 | 0.90 | 1.35 | 10 | 1.00 | — | — |",
    );
    expect(text.match(/```mermaid/g)).toHaveLength(2);
    expect(text).not.toContain("could not be measured");
  });

  it("puts the server's per-RPC overhead and memory beside the library call", () => {
    const text = renderReport({
      ...results(2, 100),
      server: {
        direct: row("getBiosSerialNumber, library call", 10, 0.01),
        viaServer: row("GetBIOSSerialNumber, v1 client → csi-proxy-server", 11.5, 0.012),
        memory: { readyMiB: 70, afterCallsMiB: 72.25, peakMiB: 80, calls: 221 },
      },
    });
    expect(text).toContain("## The server (`@csi-proxy/server`)");
    expect(text).toContain("Per-RPC overhead of the server over the library call: 1.50 ms");
    expect(text).toContain("| csi-proxy-server (Node only) | 70.0 | 72.3 | 80.0 | 221 |");
    expect(renderReport(results(2, 100))).not.toContain("## The server");
  });

  it("takes the grpc-js floor off a refused call and says whether the target is met", () => {
    const server = {
      direct: row("getBiosSerialNumber, library call", 10, 0.01),
      viaServer: row("GetBIOSSerialNumber, v1 client → csi-proxy-server", 11.5, 0.012),
      floor: row("no-op grpc-js server (floor)", 0.4, 0.001),
      memory: { readyMiB: 70, afterCallsMiB: 72.25, peakMiB: 80, calls: 221 },
    };
    const met = renderReport({
      ...results(2, 100),
      server: { ...server, denied: row("refused by the policy", 0.7, 0.001) },
    });
    expect(met).toContain("| no-op grpc-js server (floor) |");
    expect(met).toContain("| refused by the policy |");
    expect(met).toContain("**0.30 ms** against a target of ≤ 0.50 ms median, met");
    expect(met).toContain("The allowed call less the library call less the floor: **1.10 ms**");
    expect(met).toContain(
      "| allowed RPC − library call − floor ≤ 0.50 ms (median, one arrangement) | 1.10 ms (11.5 − 10.0 − 0.40 ms) | **fail** |",
    );
    const close = renderReport({
      ...results(2, 100),
      server: { ...server, direct: row("getBiosSerialNumber, library call", 10.8, 0.01) },
    });
    expect(close).toContain("| 0.30 ms (11.5 − 10.8 − 0.40 ms) | pass |");
    const missed = renderReport({
      ...results(2, 100),
      server: { ...server, denied: row("refused by the policy", 1.5, 0.001) },
    });
    expect(missed).toContain(
      "**1.10 ms** against a target of ≤ 0.50 ms median, **not met** in this run",
    );
    // Without the refused row there is no measure of the server's own work to judge.
    expect(renderReport({ ...results(2, 100), server })).not.toContain("against a target");
  });

  it("holds the allowed call against the idle floor, with its interval and the rows' warm-up", () => {
    const text = renderReport({
      ...results(2, 100),
      server: {
        direct: row("getBiosSerialNumber, library call", 10, 0.01),
        viaServer: row("GetBIOSSerialNumber, v1 client → csi-proxy-server", 13, 0.012),
        floor: row("no-op grpc-js server (floor)", 1, 0.001),
        denied: row("refused by the policy", 1.3, 0.001),
        idleFloor: {
          delayed: row("idle floor", 12.6, 0.001),
          timer: row("timer", 10.2, 0),
          delayMs: 10,
        },
        allowedInterval: { low: 0.1, high: 0.9 },
        warm: { ms: 40_000, calls: 1_200 },
        memory: { readyMiB: 70, afterCallsMiB: 72.25, peakMiB: 80, calls: 2_001 },
      },
    });
    expect(text).toContain(
      "| allowed RPC − library call − idle floor ≤ 0.50 ms (median, one arrangement) | 0.60 ms (13.0 − 10.0 − 2.40 ms; 90% interval 0.10 to 0.90 ms) | **fail** |",
    );
    expect(text).toContain("a 90% interval of 0.10 to 0.90 ms");
    expect(text).toContain(
      "after every row ran for 40 s in turns, a pool's worth of calls at once, 1200 calls or more each",
    );
  });

  it("reports the storm's rows, through the server and on the library, and judges issue #37's targets", () => {
    const row = (
      mode: StormRow["mode"],
      via: StormRow["via"],
      cimLatencyMs: number,
      wallMs: number,
      cmdlets: number,
    ): StormRow => ({
      mode,
      via,
      cimLatencyMs,
      wallMs,
      cmdlets,
      topCmdlets: [["Get-Disk", 90]],
      sequences: 32,
      rpcs: 289,
    });
    const storm: StormRow[] = [
      row("serial", "server", 0, 30_000, 600),
      row("concurrent", "server", 0, 27_000, 610),
      row("serial", "library", 0, 28_000, 530),
      row("concurrent", "library", 0, 25_000, 530),
      row("serial", "server", 50, 60_000, 600),
      row("concurrent", "server", 50, 20_000, 640),
    ];
    const text = renderReport({ ...results(2, 100), storm });
    expect(text).toContain("## Restage storm through the server");
    expect(text).toContain("| serial | server | 0 | 32 | 30.0 | 289 | 600 | 2.08 | Get-Disk ×90 |");
    expect(text).toContain(
      "| concurrent | server | 50 | 32 | 20.0 | 289 | 640 | 2.21 | Get-Disk ×90 |",
    );
    expect(text).toContain("all at once ÷ one after another (wall time): 0.90");
    expect(text).toContain(
      "| storm through the server ≤ 2.2 cmdlet calls per RPC, serial and concurrent | 2.08 serial, 2.11 concurrent | pass |",
    );
    expect(text).toContain(
      "| storm all at once no slower than one after another (wall time ratio ≤ 1.0) | 0.90 (27.0 s vs 30.0 s) | pass |",
    );
    expect(text).toContain(
      "| storm at a simulated 50 ms per CIM cmdlet: all at once ≥ 2× faster than one after another (default pool) | 3.0× (20.0 s vs 60.0 s) | pass |",
    );
    expect(text).toContain(
      "| storm cmdlet calls through the server ÷ on the library directly ≤ 1.2 | 1.13 serial (600 vs 530), 1.15 concurrent (610 vs 530) | pass |",
    );
    const slow = renderReport({
      ...results(2, 100),
      storm: [row("serial", "server", 0, 30_000, 700), row("concurrent", "server", 0, 40_000, 640)],
    });
    expect(slow).toContain("| 2.42 serial, 2.21 concurrent | **fail** |");
    expect(slow).toContain("| 1.33 (40.0 s vs 30.0 s) | **fail** |");
    expect(renderReport(results(2, 100))).not.toContain("Restage storm");
  });

  it("reports fairness between endpoint sets and judges it against 2×", () => {
    const fairness = {
      aloneMs: 8,
      floodMs: 12,
      samples: 40,
      slowInFlight: 8,
      refusedInFlight: 100,
      slowMs: 2000,
    };
    const text = renderReport({ ...results(2, 100), fairness });
    expect(text).toContain("## Fairness between endpoint sets");
    expect(text).toContain("| while A floods | 12.0 |");
    expect(text).toContain(
      "| one endpoint set's call while another floods (slow and refused calls) ≤ 2× alone (median) | 1.5× (12.0 ms vs 8.00 ms) | pass |",
    );
    const unfair = renderReport({ ...results(2, 100), fairness: { ...fairness, floodMs: 17 } });
    expect(unfair).toContain("| 2.1× (17.0 ms vs 8.00 ms) | **fail** |");
  });

  it("adds the round-trip section and its targets, failing what they miss", () => {
    const count = { scripts: 3, cmdlets: 4, repeats: 0, repeatsAcross: 1, traces: [] };
    const text = renderReport({
      ...results(2, 100),
      roundTrips: {
        methods: [{ group: "disk", method: "partitionDisk", path: "common", ...count }],
        csi: [
          {
            operation: "NodeStage, block via iSCSI",
            path: "common",
            steps: [{ call: "disk.partitionDisk", ...count }],
            ...count,
            upstreamScripts: 12,
            upstreamNote: "PartitionDisk ×4",
          },
        ],
      },
    });
    expect(text).toContain("## Round trips per operation");
    expect(text).toContain(
      "| every method makes ≤ 1 script on its common path | 1 of 1 methods over: disk.partitionDisk 3 | **fail** |",
    );
    expect(text).toContain(
      "| cold iSCSI NodeStage ≤ 12 scripts | 3 scripts (upstream v1: 12 processes) | pass |",
    );
    expect(renderReport(results(2, 100))).not.toContain("## Round trips");
  });

  it("holds session pool 1 to twice the floor of a persistent pwsh", () => {
    const base = results(2, 100);
    const floor = row(
      "floor: persistent pwsh, cached script block, one parameter, JSON",
      0.5,
      0.001,
    );
    const text = renderReport({ ...base, overhead: [...base.overhead, floor] });
    expect(text).toMatch(
      /\| session pool 1 per call ≤ 2× the floor \(median\) \| 4\.0× \(2\.00 ms vs 0\.50 ms\) \| \*\*fail\*\* \|/,
    );
  });

  it("holds pool 2 to 1.6× pool 1 for calls that wait, and explains the bound", () => {
    const scaling = (call: string, poolSize: number, callsPerSecond: number, coresBusy: number) =>
      ({
        ...row(`${call}, pool ${poolSize}`, 100, 0.002),
        call,
        poolSize,
        callsPerSecond,
        coresBusy,
      }) satisfies LightThroughputRow;
    const wait = "waits 5 ms (Start-Sleep), as a CIM query waits on its provider";
    const rows = [
      scaling(wait, 1, 180, 0.3),
      scaling(wait, 2, 280, 1.1),
      scaling("trivial script", 1, 7000, 1.5),
      scaling("trivial script", 2, 7100, 1.8),
    ];
    const text = renderReport({ ...results(2, 100), lightThroughput: rows });
    expect(text).toContain(
      "| pool 2 ≥ 1.6× the throughput of pool 1, CPU-light calls | 1.6× (280 vs 180 calls/s; a call that waits 5 ms (Start-Sleep)) | **fail** |",
    );
    expect(text).toContain("## Pool scaling with CPU-light calls");
    expect(text).toContain(
      "- trivial script: pool 1 keeps 1.50 of 2 cores busy, pool 2 1.80, for 1.0× the calls per second.",
    );
    const passing = [scaling(wait, 1, 180, 0.3), scaling(wait, 2, 300, 1.1)];
    expect(verdicts({ ...results(2, 100), lightThroughput: passing }).at(-1)).toMatchObject({
      pass: true,
    });
    expect(renderReport(results(2, 100))).not.toContain("## Pool scaling");
  });

  it("splits a call's CPU by PowerShell thread and keeps the before/after record", () => {
    const callTime: CallTimeRow = {
      ...row("session pool 1, DOTNET_TieredPGO=0 (as shipped)", 0.063, 0.0001),
      threads: { pipeline: 0.000062, tiering: 0.000014, other: 0.000005 },
    };
    const text = renderReport({ ...results(2, 100), callTime: [callTime] });
    expect(text).toContain(
      "| session pool 1, DOTNET_TieredPGO=0 (as shipped) | 0.06 | 0.09 | 0.03 | 0.06 | 0.01 | 0.01 |",
    );
    expect(text).toMatch(/\| before \(7a745c9\)[^|]*\| 0\.96–0\.99 \| 0\.58 \|/);
    expect(renderReport(results(2, 100))).not.toContain("## Where the time of a call goes");
  });

  it("says why node-powershell has no row", () => {
    const text = renderReport({ ...results(2, 100), peerError: "pwsh exited" });
    expect(text).toContain("node-powershell could not be measured: pwsh exited");
  });
});
