import { describe, expect, it } from "vitest";
import { judge, type Sample } from "../src/verdict.js";

/** Forty samples whose RSS follows `rss(i)`. */
function samples(rss: (i: number) => number, children = 4): Sample[] {
  return Array.from({ length: 40 }, (_, i) => ({
    calls: (i + 1) * 500,
    seconds: i + 1,
    rate: 50,
    rssMiB: rss(i),
    heapMiB: 10,
    children,
    failures: 0,
  }));
}

describe("the soak's verdict", () => {
  it("passes flat memory with the pool's processes", () => {
    expect(
      judge(
        samples(() => 60),
        4,
        0,
        0,
      ).ok,
    ).toBe(true);
  });

  it("ignores the warm-up", () => {
    expect(
      judge(
        samples((i) => (i < 3 ? 30 : 60)),
        4,
        0,
        0,
      ).ok,
    ).toBe(true);
  });

  it("fails a steady leak, extra children, untyped failures and leftovers", () => {
    expect(
      judge(
        samples((i) => 60 + i * 2),
        4,
        0,
        0,
      ).reasons,
    ).toEqual([expect.stringContaining("RSS grew")]);
    expect(
      judge(
        samples(() => 60, 5),
        4,
        0,
        0,
      ).ok,
    ).toBe(false);
    expect(
      judge(
        samples(() => 60),
        4,
        1,
        0,
      ).ok,
    ).toBe(false);
    expect(
      judge(
        samples(() => 60),
        4,
        0,
        1,
      ).ok,
    ).toBe(false);
  });
});
