import Table from "cli-table3";

/** A table cell: text, a number, a byte count, or nothing (shown as `-`). */
export type Cell = string | number | bigint | boolean | null | undefined;

function cellText(value: Cell): string {
  if (value === null || value === undefined || value === "") return "-";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

// No rule between rows: a listing of twenty disks stays twenty lines.
const compact = { mid: "", "left-mid": "", "mid-mid": "", "right-mid": "" };

/** A plain table for a terminal: no colours, so it reads the same when pasted into an issue. */
export function renderTable(head: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const table = new Table({ head: [...head], style: { head: [], border: [] }, chars: compact });
  for (const row of rows) table.push(row.map(cellText));
  return table.toString();
}

/** Stable JSON for scripts: two-space indent, and every `bigint` as a decimal string. */
export function renderJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? String(v) : v), 2);
}

/** A byte count as JSON shows it: always a decimal string, since UInt64 values pass 2^53. */
export function byteString(bytes: number | bigint): string {
  return BigInt(bytes).toString();
}

const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"] as const;

/** A byte count for a person, e.g. `20.0 GiB`; exact bytes below 1 KiB. */
export function humanBytes(bytes: number | bigint | string): string {
  let value = Number(bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit] ?? ""}`;
}
