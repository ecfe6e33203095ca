import { describe, expect, it } from "vitest";
import { bootstrapInterval, summarise } from "../src/stats.js";

describe("summarise", () => {
  it("interpolates the median and p95 of unsorted samples", () => {
    const samples = Array.from({ length: 21 }, (_, i) => 20 - i);
    expect(summarise(samples)).toEqual({ median: 10, p95: 19, count: 21 });
  });

  it("interpolates between neighbours", () => {
    expect(summarise([1, 2]).median).toBe(1.5);
    expect(summarise([1, 2]).p95).toBeCloseTo(1.95);
  });

  it("gives NaN for no samples", () => {
    const stats = summarise([]);
    expect(stats.count).toBe(0);
    expect(stats.median).toBeNaN();
    expect(stats.p95).toBeNaN();
  });
});

describe("bootstrapInterval", () => {
  const spread = (centre: number) => Array.from({ length: 401 }, (_, i) => centre + (i - 200) / 50);

  it("brackets a difference of medians, and narrows as the samples grow", () => {
    const figure = ([a = NaN, b = NaN]: readonly number[]) => a - b;
    const wide = bootstrapInterval([spread(12), spread(10)], figure, 300);
    expect(wide.low).toBeLessThan(2);
    expect(wide.high).toBeGreaterThan(2);
    const more = (centre: number) => [...spread(centre), ...spread(centre), ...spread(centre)];
    const narrow = bootstrapInterval([more(12), more(10)], figure, 300);
    expect(narrow.high - narrow.low).toBeLessThan(wide.high - wide.low);
  });

  it("gives the same interval for the same samples", () => {
    const figure = ([a = NaN]: readonly number[]) => a;
    expect(bootstrapInterval([spread(5)], figure)).toEqual(bootstrapInterval([spread(5)], figure));
  });

  it("is the figure itself when every sample is the same", () => {
    expect(bootstrapInterval([[3, 3, 3]], ([a = NaN]) => a * 2)).toEqual({ low: 6, high: 6 });
  });
});
