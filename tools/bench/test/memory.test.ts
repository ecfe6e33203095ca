import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { descendantMemory, processMemory } from "../src/memory.js";

describe("process memory from /proc", () => {
  it("reads this process's resident and peak memory", () => {
    const self = processMemory(process.pid);
    expect(self?.rssMiB).toBeGreaterThan(1);
    expect(self?.peakMiB).toBeGreaterThanOrEqual(self?.rssMiB ?? Infinity);
  });

  it("is undefined for a process that does not exist", () => {
    expect(processMemory(2 ** 22 + 7)).toBeUndefined();
  });

  it("finds a child among the descendants", async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => child.once("spawn", resolve));
      expect(descendantMemory().map((m) => m.pid)).toContain(child.pid);
    } finally {
      child.kill();
    }
  });
});
