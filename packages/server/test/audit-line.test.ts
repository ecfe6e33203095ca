// What one audit line can hold (issue #33 item 7): a value a caller chose is cut to 1,024
// characters around a marker with its length and SHA-256, so the whole value can still be matched.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { auditLine, cutValue, maxAuditValueLength, outcomeLine } from "../src/audit.js";

const call = {
  time: "2026-12-06T04:10:00.000Z",
  call: "c1",
  caller: "local",
  method: "filesystem.Mkdir",
  endpoint: "filesystem-v1",
  endpointSet: "default",
  peer: "pid=1",
};

describe("cutValue", () => {
  it("leaves a value of 1,024 characters or fewer as it is", () => {
    const value = "x".repeat(maxAuditValueLength);
    expect(cutValue(value)).toBe(value);
  });

  it("keeps the start and end of a longer one, with how much was cut and its SHA-256", () => {
    const value = `C:\\${"a".repeat(100_000)}\\end`;
    const hash = createHash("sha256").update(value).digest("hex");
    const cut = cutValue(value);
    expect(cut.startsWith(`C:\\${"a".repeat(509)}…[`)).toBe(true);
    expect(cut.endsWith(`]…${"a".repeat(508)}\\end`)).toBe(true);
    expect(cut).toContain(`…[${value.length - 1024} characters cut, sha256 ${hash}]…`);
  });

  it("never splits a surrogate pair", () => {
    const cut = cutValue("😀".repeat(1000));
    // A lone surrogate does not survive a round trip through UTF-8.
    expect(Buffer.from(cut).toString()).toBe(cut);
  });
});

describe("auditLine and outcomeLine", () => {
  it("cut the caller's values: resources, reason, caller, error", () => {
    const long = "p".repeat(200_000);
    const line = auditLine(
      {
        ...call,
        caller: long,
        resources: [`path ${long}`, `path ${long} (target)`],
        decision: "deny",
        rules: ["r"],
        reason: `no grant covers ${long}`,
        status: "PERMISSION_DENIED",
        durationMs: 1,
      },
      [],
    );
    expect(line.length).toBeLessThan(5 * 1200);
    const outcome = outcomeLine({ ...call, status: "NOT_FOUND", durationMs: 2, error: long });
    expect(outcome.length).toBeLessThan(1600);
    expect(JSON.parse(outcome)).toMatchObject({ status: "NOT_FOUND", durationMs: 2 });
  });
});
