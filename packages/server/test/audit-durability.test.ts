// The audit log's promise (docs/audit-log.md): a call's line is written before the call runs, and
// a call whose line cannot be written does not run.
import { describe, expect, it } from "vitest";
import { guarded, type GuardContext } from "../src/guard.js";
import type { Authorizer } from "../src/policy/authorize.js";
import type { Policy } from "../src/policy/load.js";

const where = { endpoint: "system-v1alpha1", endpointSet: "default" };
const method = "system.GetBIOSSerialNumber";

// Allows everything: what is under test is the order of audit and call, not the policy.
function context(audit: (line: string) => void): GuardContext {
  return {
    policy: {
      grantsFor: () => ({ rules: ["r"] }),
      endpointSetGrants: () => undefined,
    } as unknown as Policy,
    authorizer: {
      decide: () => Promise.resolve({ allowed: true, roots: [] }),
      narrow: (_grants: unknown, _method: string, response: unknown) => Promise.resolve(response),
      boundaries: () => ({}),
    } as unknown as Authorizer,
    audit,
    identify: () => Promise.resolve({ kind: "local", name: "local" }),
  };
}

describe("the audit line and the call", () => {
  it("writes the line before the call runs", async () => {
    const events: string[] = [];
    const rpc = guarded(
      where,
      method,
      () => {
        events.push("call");
        return Promise.resolve({ serial_number: "x" });
      },
      context((line) =>
        events.push(`audit ${(JSON.parse(line) as { decision: string }).decision}`),
      ),
    );
    await rpc([], {}, {}, "pid=1");
    expect(events).toEqual(["audit allow", "call"]);
  });

  it("does not run a call whose line cannot be written", async () => {
    const full = Object.assign(new Error("ENOSPC: no space left on device, write"), {
      code: "ENOSPC",
    });
    let ran = false;
    const rpc = guarded(
      where,
      method,
      () => {
        ran = true;
        return Promise.resolve({});
      },
      context(() => {
        throw full;
      }),
    );
    await expect(rpc([], {}, {}, "pid=1")).rejects.toBe(full);
    expect(ran).toBe(false);
  });
});
