/** Median and 95th percentile of a set of samples (milliseconds), by linear interpolation. */
export function summarise(samples: readonly number[]): {
  median: number;
  p95: number;
  count: number;
} {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), count: sorted.length };
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] ?? Number.NaN;
  const high = sorted[upper] ?? Number.NaN;
  return low + (high - low) * (position - lower);
}

/** Where a figure lies with 90% confidence. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/**
 * A 90% percentile-bootstrap interval of `figure`, a function of the sets' medians: each of
 * `resamples` rounds draws every set anew (as many samples, with replacement). The draws are
 * seeded, so a run's samples always give the same interval.
 */
export function bootstrapInterval(
  sets: readonly (readonly number[])[],
  figure: (medians: readonly number[]) => number,
  resamples = 1_000,
): Interval {
  const random = seeded(0x5eed);
  const figures: number[] = [];
  for (let round = 0; round < resamples; round++) {
    const medians = sets.map((set) => {
      const drawn = Array.from(
        { length: set.length },
        () => set[Math.floor(random() * set.length)] ?? Number.NaN,
      );
      return quantile(
        drawn.sort((a, b) => a - b),
        0.5,
      );
    });
    figures.push(figure(medians));
  }
  figures.sort((a, b) => a - b);
  return { low: quantile(figures, 0.05), high: quantile(figures, 0.95) };
}

// mulberry32: a small seeded generator, so the interval is reproducible from the samples.
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
