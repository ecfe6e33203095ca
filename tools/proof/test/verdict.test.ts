import { describe, expect, it } from "vitest";
import { judge, type Sample } from "../src/verdict.js";

/** Forty samples whose RSS follows `rss(i)` and PowerShell memory `pwsh(i)`. */
function samples(
  rss: (i: number) => number,
  children = 4,
  pwsh: (i: number) => { mean: number; max: number } = () => ({ mean: 100, max: 110 }),
): Sample[] {
  return Array.from({ length: 40 }, (_, i) => ({
    calls: (i + 1) * 500,
    seconds: i + 1,
    rate: 50,
    rssMiB: rss(i),
    heapMiB: 10,
    children,
    failures: 0,
    pwshMiB: pwsh(i).mean,
    pwshMaxMiB: pwsh(i).max,
  }));
}

describe("the soak's verdict", () => {
  it("fails PowerShell processes that grow, on average or one alone", () => {
    expect(
      judge(
        samples(
          () => 60,
          4,
          (i) => ({ mean: 100 + i * 3, max: 110 + i * 3 }),
        ),
        4,
        0,
        0,
      ).reasons,
    ).toEqual([expect.stringContaining("PowerShell process memory grew")]);
    // Faults replace most processes, which hides one that leaks from the mean.
    expect(
      judge(
        samples(
          () => 60,
          4,
          (i) => ({ mean: 100, max: 110 + i * 10 }),
        ),
        4,
        0,
        0,
      ).reasons,
    ).toEqual([expect.stringContaining("a PowerShell process reached")]);
  });

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
