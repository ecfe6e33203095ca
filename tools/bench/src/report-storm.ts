// The BENCHMARKS.md section on the restage storm (issue #24 item 6).
import { formatRatio, table } from "./markdown.js";
import type { StormRow } from "./storm-bench.js";

const seconds = (ms: number) => (ms / 1000).toFixed(1);

export function stormLines(rows: readonly StormRow[] | undefined): string[] {
  if (rows === undefined || rows.length === 0) return [];
  const serial = rows.find((r) => r.mode === "serial");
  const concurrent = rows.find((r) => r.mode === "concurrent");
  const lines = [
    "",
    "## Restage storm through the server",
    "",
    "After a node reboot kubelet stages every volume at once. 16 democratic-csi iSCSI NodeStage sequences (portal, CHAP login, rescan, disk online, partition, format, mkdir, mount) and 16 csi-driver-smb SMB NodeStage sequences (mkdir, global mapping at the staging path), distinct volumes, each driver on its own endpoint set under a least-privilege policy, through `csi-proxy-server --simulate` on a fresh node per run: one after another, then all at once. `tools/bench/test/storm.test.ts` checks, in `pnpm test`, that every sequence of the concurrent run succeeds once with its own answers.",
    "",
    ...table(
      ["run", "sequences", "wall (s)", "RPCs", "cmdlet calls", "cmdlets per RPC", "most called"],
      ["l", "r", "r", "r", "r", "r", "l"],
      rows.map((r) => [
        r.mode,
        String(r.sequences),
        seconds(r.wallMs),
        String(r.rpcs),
        String(r.cmdlets),
        (r.cmdlets / r.rpcs).toFixed(1),
        r.topCmdlets.map(([name, n]) => `${name} ×${n}`).join(", "),
      ]),
    ),
  ];
  if (serial !== undefined && concurrent !== undefined)
    lines.push(
      "",
      `All at once ÷ one after another (wall time): ${formatRatio(concurrent.wallMs / serial.wallMs)}. The server runs every call as it arrives, on its pool of PowerShell processes (\`--powershell-pool\`, 4 here; \`packages/server/test/powershell-pool.test.ts\` shows a held call not holding up another). On this simulated node the host is the limit: the simulator takes one lock per cmdlet, so the calls queue for it whatever their order, and a concurrent storm asks more of it. Every disk or volume RPC of a driver granted \`"disks": { "ofIscsiTargets": true }\` looks up the disks of each granted target the server knows (one \`Get-IscsiSession\` and \`Get-Disk\` per target), and all 16 targets are logged in for most of the concurrent run. That ownership lookup, not the policy decision (see the refused row above), is where a storm's time goes; on Windows the CIM providers, not a lock, set the limit, so these wall times say nothing of a real node's.`,
    );
  return lines;
}
