import { describe, expect, it } from "vitest";
import { descendantsOf, parseProcStat, type ProcStat } from "../src/cpu.js";

// A real /proc/<pid>/stat line, with a command name holding a space and a parenthesis.
const line =
  "4242 (dot net) x) S 100 4242 4242 0 -1 4194560 2616 0 0 0 57 13 4 2 20 0 24 0 8713 3221225472 14000 18446744073709551615 1 1 0 0 0 0 0 4096 17663 0 0 0 17 1 0 0 0 0 0\n";

const stat = (pid: number, ppid: number, state = "S"): ProcStat => ({
  pid,
  ppid,
  state,
  utime: 0,
  stime: 0,
  cutime: 0,
  cstime: 0,
});

describe("parseProcStat", () => {
  it("reads pid, state, ppid and the four time fields (14-17)", () => {
    expect(parseProcStat(line)).toEqual({
      pid: 4242,
      state: "S",
      ppid: 100,
      utime: 57,
      stime: 13,
      cutime: 4,
      cstime: 2,
    });
  });

  it("rejects text that is not a stat line", () => {
    expect(() => parseProcStat("nonsense")).toThrow(/not a \/proc stat line/);
    expect(() => parseProcStat("1 (a) S x")).toThrow(/bad \/proc stat field/);
  });
});

describe("descendantsOf", () => {
  it("finds children and grandchildren in any order, skipping zombies and strangers", () => {
    const stats = [stat(30, 20), stat(20, 10), stat(21, 10, "Z"), stat(40, 99), stat(10, 1)];
    expect(
      descendantsOf(10, stats)
        .map((s) => s.pid)
        .sort(),
    ).toEqual([20, 30]);
  });

  it("finds nothing for a leaf", () => {
    expect(descendantsOf(30, [stat(30, 20)])).toEqual([]);
  });
});
