import { describe, expect, it } from "vitest";
import type { CallLogEntry } from "@csi-proxy/winsim";
import { roundTripLines, roundTripVerdicts } from "../src/report.js";
import {
  repeatedQueries,
  type Count,
  type CsiRow,
  type MethodRow,
  type RoundTrips,
} from "../src/round-trips.js";

const count = (scripts: readonly (readonly string[])[], repeats = 0): Count => ({
  scripts: scripts.length,
  cmdlets: scripts.reduce((n, s) => n + s.length, 0),
  repeats,
  repeatsAcross: repeats,
  traces: scripts.map((cmdlets, i) => ({
    script: `s${i}`,
    cmdlets,
    repeats: [],
    entries: [],
  })),
});

const method = (
  group: MethodRow["group"],
  name: string,
  path: MethodRow["path"],
  scripts: readonly (readonly string[])[],
): MethodRow => ({ group, method: name, path, ...count(scripts) });

function csi(operation: string, path: CsiRow["path"], scripts: number, cmdlets: number): CsiRow {
  const step = { call: "disk.partitionDisk", ...count([["Get-Disk"], ["New-Partition"]]) };
  return {
    operation,
    path,
    steps: [step, { call: "filesystem.mkdir", ...count([]) }],
    scripts,
    cmdlets,
    repeats: 0,
    repeatsAcross: 0,
    traces: [],
    upstreamScripts: 12,
    upstreamNote: "AddTargetPortal, ...",
  };
}

function roundTrips(stageScripts: number, retryScripts: number): RoundTrips {
  return {
    methods: [
      method("disk", "getDiskStats", "common", [["Get-Disk"]]),
      method("disk", "partitionDisk", "common", [
        ["Get-Disk"],
        ["Initialize-Disk"],
        ["New-Partition"],
      ]),
      method("disk", "partitionDisk", "already done", [["Get-Disk"]]),
    ],
    csi: [
      csi("NodeStage, block via iSCSI", "common", stageScripts, 40),
      csi("NodeStage, block via iSCSI", "already done", retryScripts, 10),
    ],
  };
}

describe("round-trip verdicts", () => {
  it("fails honestly what the counts miss", () => {
    const v = roundTripVerdicts(roundTrips(16, 10));
    const byTarget = new Map(v.map((x) => [x.target, x]));
    expect(byTarget.get("every method makes ≤ 1 script on its common path")).toEqual({
      target: "every method makes ≤ 1 script on its common path",
      measured: "1 of 2 methods over: disk.partitionDisk 3",
      pass: false,
    });
    expect(byTarget.get("every method makes ≤ 1 script on its already done path")?.pass).toBe(true);
    expect(byTarget.get("cold iSCSI NodeStage ≤ 12 scripts")).toMatchObject({
      measured: "16 scripts (upstream v1: 12 processes)",
      pass: false,
    });
    expect(byTarget.get("cold iSCSI NodeStage ≤ 30 cmdlet calls")?.pass).toBe(false);
    expect(byTarget.get("retrying a staged iSCSI volume (NodeStage again) ≤ 6 scripts")?.pass).toBe(
      false,
    );
    expect(
      byTarget.get("no cmdlet query repeated within one script when its first answer serves")?.pass,
    ).toBe(true);
  });

  it("passes at the limits", () => {
    const rt = roundTrips(12, 6);
    const v = roundTripVerdicts(rt);
    expect(v.find((x) => x.target === "cold iSCSI NodeStage ≤ 12 scripts")?.pass).toBe(true);
    expect(v.find((x) => x.target.startsWith("retrying"))?.pass).toBe(true);
  });
});

describe("the Round trips per operation section", () => {
  it("has a row per method with both paths and a row per CSI operation with upstream's count", () => {
    const text = roundTripLines(roundTrips(16, 10)).join("\n");
    expect(text).toContain("## Round trips per operation");
    expect(text).toContain("| disk.getDiskStats | 1 | 1 | — | — | 0 / 0 | `s0` |");
    expect(text).toContain(
      "| disk.partitionDisk | 3 | 3 | 1 | 1 | 0 / 0; 0 / 0 | `s0`, `s1`, `s2` |",
    );
    expect(text).toContain(
      "| NodeStage, block via iSCSI | common | 16 | 40 | 12 (AddTargetPortal, ...) | disk.partitionDisk 2/2, filesystem.mkdir (Node) |",
    );
    expect(text).toContain("csi-proxy-v1-server.md § 1.4");
  });

  it("is absent when the run did not count round trips", () => {
    expect(roundTripLines(undefined)).toEqual([]);
  });
});

describe("repeatedQueries", () => {
  const entry = (command: string, parameters: Record<string, unknown> = {}): CallLogEntry => ({
    seq: 0,
    pid: 1,
    command,
    parameters,
    target: {},
    outcome: "ok",
    start: 0,
    end: 0,
  });

  it("counts a query asked again with the same arguments while nothing changed", () => {
    const n = { Number: 1 };
    expect(repeatedQueries([entry("Get-Disk", n), entry("Get-Disk", n)])).toEqual(["Get-Disk"]);
    expect(repeatedQueries([entry("Get-Disk", n), entry("Get-Disk", { Number: 2 })])).toEqual([]);
    expect(
      repeatedQueries([entry("Get-Disk", n), entry("Set-Disk", n), entry("Get-Disk", n)]),
    ).toEqual([]);
  });
});
