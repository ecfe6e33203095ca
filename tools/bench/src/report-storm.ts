// The BENCHMARKS.md section on the restage storm (issue #24 item 6, issue #37) and its targets.
import { formatRatio, table } from "./markdown.js";
import type { StormRow } from "./storm-bench.js";

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const perRpc = (r: StormRow) => r.cmdlets / r.rpcs;

/** A storm target from issue #37, with the measured value. */
interface StormVerdict {
  readonly target: string;
  readonly measured: string;
  readonly pass: boolean;
}

function pick(
  rows: readonly StormRow[],
  via: StormRow["via"],
  mode: StormRow["mode"],
  latency: "none" | "simulated",
): StormRow | undefined {
  return rows.find(
    (r) =>
      r.via === via &&
      r.mode === mode &&
      (latency === "none" ? r.cimLatencyMs === 0 : r.cimLatencyMs > 0),
  );
}

/** Issue #37's storm targets, evaluated on the measured rows. */
export function stormVerdicts(rows: readonly StormRow[] | undefined): StormVerdict[] {
  if (rows === undefined) return [];
  const out: StormVerdict[] = [];
  const serial = pick(rows, "server", "serial", "none");
  const concurrent = pick(rows, "server", "concurrent", "none");
  if (serial !== undefined && concurrent !== undefined) {
    out.push({
      target: "storm through the server ≤ 2.2 cmdlet calls per RPC, serial and concurrent",
      measured: `${perRpc(serial).toFixed(2)} serial, ${perRpc(concurrent).toFixed(2)} concurrent`,
      pass: perRpc(serial) <= 2.2 && perRpc(concurrent) <= 2.2,
    });
    const ratio = concurrent.wallMs / serial.wallMs;
    out.push({
      target: "storm all at once no slower than one after another (wall time ratio ≤ 1.0)",
      measured: `${ratio.toFixed(2)} (${seconds(concurrent.wallMs)} s vs ${seconds(serial.wallMs)} s)`,
      pass: ratio <= 1.0,
    });
  }
  const slowSerial = pick(rows, "server", "serial", "simulated");
  const slowConcurrent = pick(rows, "server", "concurrent", "simulated");
  if (slowSerial !== undefined && slowConcurrent !== undefined) {
    const speedup = slowSerial.wallMs / slowConcurrent.wallMs;
    out.push({
      target: `storm at a simulated ${slowSerial.cimLatencyMs} ms per CIM cmdlet: all at once ≥ 2× faster than one after another (default pool)`,
      measured: `${formatRatio(speedup)} (${seconds(slowConcurrent.wallMs)} s vs ${seconds(slowSerial.wallMs)} s)`,
      pass: speedup >= 2,
    });
  }
  const ratios = (["serial", "concurrent"] as const).flatMap((mode) => {
    const server = pick(rows, "server", mode, "none");
    const library = pick(rows, "library", mode, "none");
    return server === undefined || library === undefined
      ? []
      : [{ mode, ratio: server.cmdlets / library.cmdlets, server, library }];
  });
  if (ratios.length > 0) {
    out.push({
      target: "storm cmdlet calls through the server ÷ on the library directly ≤ 1.2",
      measured: ratios
        .map((r) => `${r.ratio.toFixed(2)} ${r.mode} (${r.server.cmdlets} vs ${r.library.cmdlets})`)
        .join(", "),
      pass: ratios.every((r) => r.ratio <= 1.2),
    });
  }
  return out;
}

export function stormLines(rows: readonly StormRow[] | undefined): string[] {
  if (rows === undefined || rows.length === 0) return [];
  const serial = pick(rows, "server", "serial", "none");
  const concurrent = pick(rows, "server", "concurrent", "none");
  const slowSerial = pick(rows, "server", "serial", "simulated");
  const slowConcurrent = pick(rows, "server", "concurrent", "simulated");
  const lines = [
    "",
    "## Restage storm through the server",
    "",
    "After a node reboot kubelet stages every volume at once. 16 democratic-csi iSCSI NodeStage sequences (portal, CHAP login, rescan, disk online, partition, format, mkdir, mount) and 16 csi-driver-smb SMB NodeStage sequences (mkdir, global mapping at the staging path), distinct volumes, each driver on its own endpoint set under a least-privilege policy, through `csi-proxy-server --simulate` on a fresh node per run: one after another, then all at once. The library rows send the same RPCs' group calls to the library directly (`src/storm-library.ts`: no policy, no ownership decisions, the same pool of 4 on the same kind of node), so the server ÷ library ratio is what the server's own decisions ask of the host. The latency rows give every Storage, iSCSI and SMB cmdlet a simulated CIM round trip (`cimLatencyMs`, docs/design/winsim.md, \"Simulated CIM latency\"), as on a node, where each is a call into a WMI provider. `tools/bench/test/storm.test.ts` checks, in `pnpm test`, that every sequence of the concurrent run succeeds once with its own answers.",
    "",
    ...table(
      [
        "run",
        "via",
        "CIM latency (ms)",
        "sequences",
        "wall (s)",
        "RPCs",
        "cmdlet calls",
        "cmdlets per RPC",
        "most called",
      ],
      ["l", "l", "r", "r", "r", "r", "r", "r", "l"],
      rows.map((r) => [
        r.mode,
        r.via,
        String(r.cimLatencyMs),
        String(r.sequences),
        seconds(r.wallMs),
        String(r.rpcs),
        String(r.cmdlets),
        perRpc(r).toFixed(2),
        r.topCmdlets.map(([name, n]) => `${name} ×${n}`).join(", "),
      ]),
    ),
  ];
  if (serial !== undefined && concurrent !== undefined)
    lines.push(
      "",
      `Through the server, all at once ÷ one after another (wall time): ${(concurrent.wallMs / serial.wallMs).toFixed(2)} on the simulator as it is${slowSerial !== undefined && slowConcurrent !== undefined ? `; at ${slowSerial.cimLatencyMs} ms per CIM cmdlet, all at once is ${formatRatio(slowSerial.wallMs / slowConcurrent.wallMs)} faster` : ""}. On the simulator as it is the host is CPU-bound (2 cores shared with the server, the clients and the pool's processes; queries run at once, changes one at a time under the simulator's lock, docs/design/winsim.md), so running at once overlaps what the cores can; at a node's latency the pool's processes overlap their CIM round trips, which is what all at once buys on Windows. Whose disk or volume is whose is decided from the server's ownership index (packages/server/docs/ownership.md): learned from the server's own answers, and read from one listing of every session's disks (\`Get-CimInstance\` of root/wmi MSiSCSIInitiator_SessionClass and \`Get-IscsiTargetPortal\`) or of every volume's disks (\`Get-Partition\`) when a decision needs it, shared by every decision waiting; before, every disk or volume RPC looked up each granted target (\`Get-IscsiSession\` and \`Get-Disk\` each), 9.6 cmdlet calls per RPC serially and 15.8 at once.`,
    );
  return lines;
}
