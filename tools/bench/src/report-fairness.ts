// The BENCHMARKS.md section on fairness between endpoint sets (issue #37) and its target.
import type { FairnessRow } from "./fairness.js";
import { formatMs, formatRatio, table } from "./markdown.js";

/** B's latency while A floods, against B's alone: at most 2×. */
export function fairnessVerdict(row: FairnessRow): {
  target: string;
  measured: string;
  pass: boolean;
} {
  const ratio = row.floodMs / row.aloneMs;
  return {
    target:
      "one endpoint set's call while another floods (slow and refused calls) ≤ 2× alone (median)",
    measured: `${formatRatio(ratio)} (${formatMs(row.floodMs)} ms vs ${formatMs(row.aloneMs)} ms)`,
    pass: ratio <= 2,
  };
}

export function fairnessLines(row: FairnessRow | undefined): string[] {
  if (row === undefined) return [];
  return [
    "",
    "## Fairness between endpoint sets",
    "",
    `Driver B's GetBIOSSerialNumber on its own endpoint set, timed ${row.samples} times alone and ${row.samples} times while driver A keeps ${row.slowInFlight} slow calls (GetService, each held ${row.slowMs / 1000} s in its cmdlet by a winsim delay fault) and ${row.refusedInFlight} calls the policy refuses by disk (GetDiskStats of a disk not A's) in flight, each sent again as soon as it returns; one csi-proxy-server, the default pool of 4, every process of which has run every call of the row before the timing (\`src/fairness.ts\`). Each set's calls wait in a lane of their own and one set holds at most all processes but one; a refusal by disk waits only for the ownership listing its decision needs, one at a time for every decision of its set waiting. That listing runs in the refusing set's own lane, within its cap, so a flood of refusals waits for A's own processes and never holds the one B is left (before, listings had a lane of their own, which a flood kept busy on that process). \`packages/server/test/fairness.test.ts\` shows the order without timing it.`,
    "",
    ...table(
      ["B's call", "median (ms)"],
      ["l", "r"],
      [
        ["alone", formatMs(row.aloneMs)],
        ["while A floods", formatMs(row.floodMs)],
      ],
    ),
  ];
}
