import { describe, expect, it } from "vitest";
import { boundDetails, maxDetailsLength } from "../src/wire-limits.js";

describe("boundDetails", () => {
  it("keeps details up to the limit as they are", () => {
    const details = "x".repeat(maxDetailsLength);
    expect(boundDetails(details)).toBe(details);
  });

  it("leaves out the middle of longer details, keeping the start and the end", () => {
    const details = `The path is longer: C:\\${"a".repeat(100_000)} (ObjectNotFound)`;
    const bounded = boundDetails(details);
    expect(bounded.length).toBeLessThan(maxDetailsLength + 100);
    expect(bounded.startsWith("The path is longer: C:\\aaa")).toBe(true);
    expect(bounded.endsWith("aaa (ObjectNotFound)")).toBe(true);
    expect(bounded).toMatch(/ … \(\d+ characters not sent\) … /);
  });

  it("never splits a surrogate pair (encodeURI would throw)", () => {
    for (const shift of [0, 1]) {
      const details = "a".repeat(shift) + "\u{1f600}".repeat(maxDetailsLength);
      expect(() => encodeURI(boundDetails(details))).not.toThrow();
    }
  });
});
