// The round-trip counts on the real simulator: plausible, internally consistent and stable. These
// tests measure; the targets are judged by `pnpm bench` (BENCHMARKS.md), never by a test.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { beforeAll, expect, it } from "vitest";
import {
  measureCsiRoundTrips,
  measureRoundTrips,
  type Count,
  type RoundTrips,
} from "../src/round-trips.js";

function consistent(count: Count): void {
  for (const n of [count.scripts, count.cmdlets, count.repeats, count.repeatsAcross]) {
    expect(Number.isInteger(n) && n >= 0).toBe(true);
  }
  expect(count.scripts).toBe(count.traces.length);
  expect(count.cmdlets).toBe(count.traces.reduce((n, t) => n + t.cmdlets.length, 0));
  expect(count.repeats).toBe(count.traces.reduce((n, t) => n + t.repeats.length, 0));
}

/**
 * The public methods of the groups that talk to PowerShell (the filesystem group runs in Node),
 * read from their classes' source: every `async name(` at class level except `close`.
 */
function publicMethods(): string[] {
  const names: string[] = [];
  for (const group of ["disk", "volume", "smb", "iscsi", "system"]) {
    const source = readFileSync(
      fileURLToPath(new URL(`../../../packages/${group}/src/${group}.ts`, import.meta.url)),
      "utf8",
    );
    for (const [, name] of source.matchAll(/^ {2}async ([A-Za-z0-9]+)\(/gm))
      if (name !== "close") names.push(`${group}.${name}`);
  }
  return names.sort();
}

// Required under CI (CSI_PROXY_REQUIRE_PWSH): never skipped there.
describeWithPwsh("round trips on the simulator", (pwsh) => {
  let rt: RoundTrips;
  beforeAll(async () => {
    rt = await measureRoundTrips(pwsh);
  });

  it("counts every public method that talks to PowerShell, once per path", () => {
    const common = rt.methods
      .filter((r) => r.path === "common")
      .map((r) => `${r.group}.${r.method}`);
    expect(common.sort()).toEqual(publicMethods());
    const keys = rt.methods.map((r) => `${r.group}.${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(rt.methods.filter((r) => r.path === "already done").length).toBeGreaterThan(10);
  });

  it("gives integer counts that add up, and at least one script per method", () => {
    for (const row of [...rt.methods, ...rt.csi]) consistent(row);
    for (const row of rt.methods) expect(row.scripts).toBeGreaterThanOrEqual(1);
  });

  it("measures the simple reads as one script and one cmdlet call", () => {
    const find = (method: string) =>
      rt.methods.find((r) => r.method === method && r.path === "common");
    expect(find("getDiskStats")).toMatchObject({ scripts: 1, cmdlets: 1 });
    expect(find("getDiskStats")?.traces[0]?.cmdlets).toEqual(["Get-Disk"]);
    expect(find("getBiosSerialNumber")).toMatchObject({ scripts: 1 });
    expect(find("listSmbGlobalMappings")?.traces[0]?.cmdlets).toEqual(["Get-SmbGlobalMapping"]);
  });

  it("measures partitionDisk and setDiskState as one script on their common and already-done paths", () => {
    const row = (method: string, path: string) =>
      rt.methods.find((r) => r.group === "disk" && r.method === method && r.path === path);
    for (const method of ["partitionDisk", "setDiskState"]) {
      for (const path of ["common", "already done"]) {
        expect(row(method, path), `${method} ${path}`).toMatchObject({ scripts: 1, repeats: 0 });
      }
    }
    // Observe, decide and act in one script: the disk is read once, re-read only after a change.
    expect(row("partitionDisk", "common")?.traces[0]?.cmdlets).toEqual([
      "Get-Disk",
      "Initialize-Disk",
      "Get-Partition",
      "New-Partition",
    ]);
    expect(row("partitionDisk", "already done")?.traces[0]?.cmdlets).toEqual([
      "Get-Disk",
      "Get-Partition",
    ]);
    expect(row("setDiskState", "common")?.traces[0]?.cmdlets).toEqual([
      "Get-Disk",
      "Set-Disk",
      "Get-Disk",
    ]);
    expect(row("setDiskState", "already done")?.traces[0]?.cmdlets).toEqual(["Get-Disk"]);
  });

  it("makes one script per method where a script observes, decides and acts", () => {
    const count = (method: string, path: string) => {
      const row = rt.methods.find((r) => r.method === method && r.path === path);
      return row === undefined ? undefined : [row.scripts, row.cmdlets, row.repeats];
    };
    // [scripts, cmdlet calls, repeated queries in a script]
    expect(count("newSmbGlobalMapping", "common")).toEqual([1, 2, 0]);
    expect(count("newSmbGlobalMapping", "already done")).toEqual([1, 2, 0]);
    expect(count("disconnectTarget", "common")).toEqual([1, 4, 0]);
    expect(count("disconnectTarget", "already done")).toEqual([1, 1, 0]);
    expect(count("resizeVolume", "common")).toEqual([1, 6, 0]);
    expect(count("resizeVolume", "already done")).toEqual([1, 5, 0]);
  });

  it("makes each CSI operation the sum of its steps, with upstream's count beside it", () => {
    for (const row of rt.csi) {
      expect(row.scripts).toBe(row.steps.reduce((n, s) => n + s.scripts, 0));
      expect(row.cmdlets).toBe(row.steps.reduce((n, s) => n + s.cmdlets, 0));
      expect(Number.isInteger(row.upstreamScripts)).toBe(true);
      for (const step of row.steps) consistent(step);
    }
    const stage = rt.csi.find(
      (r) => r.operation === "NodeStage, block via iSCSI" && r.path === "common",
    );
    expect(stage?.steps.map((s) => s.call)).toEqual([
      "system.getService",
      "system.startService",
      "iscsi.addTargetPortal",
      "iscsi.connectTarget",
      "iscsi.getTargetDisks",
      "disk.setDiskState",
      "disk.partitionDisk",
      "volume.listVolumesOnDisk",
      "volume.isVolumeFormatted",
      "volume.formatVolume",
      "filesystem.mkdir",
      "volume.mountVolume",
    ]);
    expect(stage?.upstreamScripts).toBe(12);
    // The filesystem group makes no script: publishing is all Node.
    for (const op of ["NodePublish", "NodeUnpublish"])
      expect(rt.csi.find((r) => r.operation === op)).toMatchObject({ scripts: 0, cmdlets: 0 });
    // A retry skips work the first stage did.
    const retry = rt.csi.find(
      (r) => r.operation === "NodeStage, block via iSCSI" && r.path === "already done",
    );
    expect(retry?.scripts).toBeLessThan(stage?.scripts ?? 0);
  });

  it("counts the same again on a fresh node", async () => {
    const again = await measureCsiRoundTrips(pwsh);
    const shape = (rows: RoundTrips["csi"]) =>
      rows.map((r) => [r.operation, r.path, r.scripts, r.cmdlets, r.repeats]);
    expect(shape(again)).toEqual(shape(rt.csi));
  });
});
