import { describe, expect, it } from "vitest";
import { summarise } from "../src/stats.js";

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
