// A call without a deadline gets the documented default, and every call takes its endpoint set's
// turn in the PowerShell pool (issue #37).
import { describe, expect, it } from "vitest";
import { defaultCallDeadlineMs, serverCallOptions } from "../src/call-defaults.js";

describe("the options a call runs with", () => {
  it("gives a call without a deadline two minutes, and keeps a client's own", () => {
    const signal = new AbortController().signal;
    expect(serverCallOptions({ signal, deadline: Number.POSITIVE_INFINITY }, "a", 1_000)).toEqual({
      signal,
      deadline: 1_000 + defaultCallDeadlineMs,
      fairnessKey: "a",
    });
    expect(serverCallOptions({}, "default", 5)).toEqual({
      deadline: 5 + 120_000,
      fairnessKey: "default",
    });
    expect(serverCallOptions({ deadline: 42 }, "b", 5)).toEqual({ deadline: 42, fairnessKey: "b" });
    expect(serverCallOptions({ timeoutMs: 10 }, "b", 5)).toEqual({
      timeoutMs: 10,
      fairnessKey: "b",
    });
  });
});
