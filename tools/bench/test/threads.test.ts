import { describe, expect, it } from "vitest";
import { threadKind, threadsPerCall } from "../src/threads.js";

describe("PowerShell threads", () => {
  it("tells the pipeline thread and .NET's tiering worker by their truncated names", () => {
    expect(threadKind("Pipeline Execut")).toBe("pipeline");
    expect(threadKind(".NET Tiered Com")).toBe("tiering");
    expect(threadKind(".NET TP Worker")).toBe("other");
    expect(threadKind("pwsh")).toBe("other");
  });

  it("divides what two snapshots differ by among the calls", () => {
    const before = { pipeline: 1, tiering: 0.5, other: 0.25 };
    const after = { pipeline: 1.5, tiering: 0.75, other: 0.5 };
    expect(threadsPerCall(before, after, 250)).toEqual({
      pipeline: 0.002,
      tiering: 0.001,
      other: 0.001,
    });
  });
});
