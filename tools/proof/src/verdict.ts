/** One measurement taken during the soak. */
export interface Sample {
  readonly calls: number;
  readonly seconds: number;
  /** Calls per second since the previous sample. */
  readonly rate: number;
  readonly rssMiB: number;
  readonly heapMiB: number;
  readonly children: number;
  readonly failures: number;
  /** Mean resident MiB of the PowerShell processes alive at the sample (0 when none). */
  readonly pwshMiB: number;
  /** Resident MiB of the largest PowerShell process at the sample. */
  readonly pwshMaxMiB: number;
}

/** What "flat" means, stated once so the report can print it. */
export const flatness = {
  warmUpShare: 0.1,
  maxRssGrowth: 0.2,
  maxHeapGrowth: 0.5,
  maxPwshGrowth: 0.25,
  /** No PowerShell process may grow past this multiple of the first quarter's per-process median. */
  pwshPeakFactor: 2,
} as const;

export interface Verdict {
  readonly ok: boolean;
  readonly reasons: readonly string[];
  readonly firstRss: number;
  readonly lastRss: number;
  readonly firstHeap: number;
  readonly lastHeap: number;
  readonly maxChildren: number;
  readonly firstPwsh: number;
  readonly lastPwsh: number;
  readonly maxPwsh: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * Flat: after the warm-up, the last quarter's median RSS is within 20% (heap within 50%, mean
 * PowerShell process within 25%) of the first quarter's, no PowerShell process grows past twice
 * the first quarter's per-process median; the child count never exceeds the pool; every call settled with a typed result;
 * no child is left once the pool is closed.
 */
export function judge(
  samples: readonly Sample[],
  poolSize: number,
  untyped: number,
  leftover: number,
): Verdict {
  const steady = samples.slice(Math.ceil(samples.length * flatness.warmUpShare));
  const quarter = Math.max(1, Math.floor(steady.length / 4));
  const first = steady.slice(0, quarter);
  const last = steady.slice(-quarter);
  const firstRss = median(first.map((s) => s.rssMiB));
  const lastRss = median(last.map((s) => s.rssMiB));
  const firstHeap = median(first.map((s) => s.heapMiB));
  const lastHeap = median(last.map((s) => s.heapMiB));
  const maxChildren = Math.max(0, ...samples.map((s) => s.children));
  const firstPwsh = median(first.map((s) => s.pwshMiB));
  const lastPwsh = median(last.map((s) => s.pwshMiB));
  const maxPwsh = Math.max(0, ...steady.map((s) => s.pwshMaxMiB));
  const reasons: string[] = [];
  if (steady.length < 4) reasons.push(`too few samples after warm-up (${steady.length})`);
  if (lastRss > firstRss * (1 + flatness.maxRssGrowth))
    reasons.push(`RSS grew from ${firstRss.toFixed(1)} to ${lastRss.toFixed(1)} MiB`);
  if (lastHeap > firstHeap * (1 + flatness.maxHeapGrowth))
    reasons.push(`heap grew from ${firstHeap.toFixed(1)} to ${lastHeap.toFixed(1)} MiB`);
  if (lastPwsh > firstPwsh * (1 + flatness.maxPwshGrowth))
    reasons.push(
      `PowerShell process memory grew from ${firstPwsh.toFixed(1)} to ${lastPwsh.toFixed(1)} MiB`,
    );
  if (maxPwsh > firstPwsh * flatness.pwshPeakFactor)
    reasons.push(
      `a PowerShell process reached ${maxPwsh.toFixed(1)} MiB (over ${flatness.pwshPeakFactor}× ${firstPwsh.toFixed(1)})`,
    );
  if (maxChildren > poolSize)
    reasons.push(`${maxChildren} child processes for a pool of ${poolSize}`);
  if (untyped > 0) reasons.push(`${untyped} calls failed without a typed CsiProxyError`);
  if (leftover > 0) reasons.push(`${leftover} child processes left after close()`);
  return {
    ok: reasons.length === 0,
    reasons,
    firstRss,
    lastRss,
    firstHeap,
    lastHeap,
    maxChildren,
    firstPwsh,
    lastPwsh,
    maxPwsh,
  };
}
