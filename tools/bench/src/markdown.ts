// Markdown pieces of BENCHMARKS.md: numbers, tables and charts.

/** Milliseconds with precision that suits the size. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "—";
  if (ms >= 1000) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  return ms.toFixed(2);
}

/** A ratio such as `412×`, or `—` when either side is missing. */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio) || ratio <= 0) return "—";
  return ratio >= 10 ? `${ratio.toFixed(0)}×` : `${ratio.toFixed(1)}×`;
}

/** A Markdown table; numeric-looking columns are right-aligned by the caller's `align`. */
export function table(
  header: readonly string[],
  align: readonly ("l" | "r")[],
  rows: readonly (readonly string[])[],
): string[] {
  const rule = header.map((_, i) => (align[i] === "r" ? "---:" : "---"));
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(rule), ...rows.map(line)];
}

/** A Mermaid bar chart (renders on GitHub); labels lose characters Mermaid cannot quote. */
export function barChart(
  title: string,
  axis: string,
  bars: readonly { label: string; value: number }[],
): string[] {
  const clean = (text: string) => text.replace(/["\\]/g, "");
  const values = bars.map((b) => (Number.isFinite(b.value) ? Number(b.value.toPrecision(4)) : 0));
  const max = Math.max(1, ...values);
  return [
    "```mermaid",
    "xychart-beta",
    `  title "${clean(title)}"`,
    `  x-axis [${bars.map((b) => `"${clean(b.label)}"`).join(", ")}]`,
    `  y-axis "${clean(axis)}" 0 --> ${Number((max * 1.1).toPrecision(3))}`,
    `  bar [${values.join(", ")}]`,
    "```",
  ];
}
