import { isCsiProxyError } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { pipeSddl } from "../src/pipes/sddl.js";

function refusal(sids: readonly string[]): unknown {
  try {
    pipeSddl(sids);
  } catch (error) {
    return error;
  }
  throw new Error(`pipeSddl(${JSON.stringify(sids)}) did not throw`);
}

describe("pipeSddl", () => {
  it("grants SYSTEM and Administrators only, with a protected DACL, by default", () => {
    expect(pipeSddl([])).toBe("D:P(A;;GA;;;SY)(A;;GA;;;BA)");
    expect(pipeSddl()).toBe("D:P(A;;GA;;;SY)(A;;GA;;;BA)");
  });

  it("adds read/write for extra SIDs, canonical and once each", () => {
    expect(pipeSddl(["S-1-5-21-1-2-3-1001", "s-1-5-21-1-2-3-1001", "ls", "NS"])).toBe(
      "D:P(A;;GA;;;SY)(A;;GA;;;BA)(A;;GRGW;;;S-1-5-21-1-2-3-1001)(A;;GRGW;;;LS)(A;;GRGW;;;NS)",
    );
    expect(pipeSddl(["S-1-5-021-01"])).toBe("D:P(A;;GA;;;SY)(A;;GA;;;BA)(A;;GRGW;;;S-1-5-21-1)");
  });

  it("does not add a weaker duplicate of SYSTEM or Administrators", () => {
    expect(pipeSddl(["SY", "BA", "S-1-5-18", "S-1-5-32-544"])).toBe("D:P(A;;GA;;;SY)(A;;GA;;;BA)");
  });

  it.each([
    "WD",
    "wd",
    "AN",
    "AU",
    "NU",
    "S-1-1-0",
    "S-1-5-7",
    "S-1-5-11",
    "S-1-5-2",
    "S-1-01-0",
    "S-1-5-011",
  ])("refuses the broad group %s", (sid) => {
    const error = refusal([sid]);
    expect(isCsiProxyError(error) && error.code).toBe("INVALID_ARGUMENT");
    expect(String(error)).toMatch(/refused/);
  });

  it.each([
    "",
    "S-1",
    "S-1-5",
    "S-2-5-18",
    "S-1-5-18-",
    "S-1-x-1",
    "BU",
    "XX",
    "S-1-5-21)(A;;GA;;;WD",
    "S-1-281474976710656-1",
    "S-1-5-4294967296",
    "S-1-5-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-16",
  ])("refuses the malformed or unlisted %j", (sid) => {
    const error = refusal([sid]);
    expect(isCsiProxyError(error) && error.code).toBe("INVALID_ARGUMENT");
  });

  it("refuses non-string entries and a non-array", () => {
    expect(isCsiProxyError(refusal([42 as unknown as string]))).toBe(true);
    expect(isCsiProxyError(refusal("S-1-5-18" as unknown as string[]))).toBe(true);
  });
});
