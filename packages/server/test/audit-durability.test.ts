// The audit log's promise (docs/audit-log.md): a call's line is written before the call runs, and
// a call whose line cannot be written does not run.
import { status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { AuditTrail, AuditUnavailableError } from "../src/audit-trail.js";
import { guarded, type GuardContext } from "../src/guard.js";
import type { ServerLogger } from "../src/logging/logger.js";
import { grpcStatusOf } from "../src/status.js";
import type { Authorizer } from "../src/policy/authorize.js";
import type { NodeGroups } from "../src/handlers/context.js";
import { OwnershipIndex } from "../src/policy/ownership.js";
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
      ownership: new OwnershipIndex({} as NodeGroups),
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

describe("a line that cannot be written (a full disk)", () => {
  it("refuses its call with UNAVAILABLE, says so once, counts it, and lets calls run once lines are written again", async () => {
    const logged: [string, string][] = [];
    const note = (level: string) => (_fields: Record<string, unknown>, message: string) =>
      logged.push([level, message]);
    const log: ServerLogger = {
      error: note("error"),
      warn: note("warn"),
      info: note("info"),
      debug: note("debug"),
      trace: note("trace"),
    };
    let full = true;
    const written: string[] = [];
    const trail = new AuditTrail((line) => {
      if (full)
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), {
          code: "ENOSPC",
        });
      written.push(line);
    }, log);
    let runs = 0;
    const rpc = guarded(
      where,
      method,
      () => {
        runs += 1;
        return Promise.resolve({});
      },
      context(trail.write),
    );
    for (let i = 0; i < 3; i += 1) {
      const error: unknown = await rpc([], {}, {}, "pid=1").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuditUnavailableError);
      expect(grpcStatusOf(error)).toBe(status.UNAVAILABLE);
      // The caller learns the call did not run, not why the disk is full.
      expect((error as Error).message).toBe(
        "The call was not run: the server cannot write its audit log.",
      );
    }
    expect(runs).toBe(0);
    expect(trail.healthy).toBe(false);
    expect(trail.failures).toBe(3);
    expect(logged).toEqual([
      [
        "error",
        "the audit log cannot be written: every call is refused (UNAVAILABLE) until it can",
      ],
    ]);
    full = false;
    await rpc([], {}, {}, "pid=1");
    expect(runs).toBe(1);
    expect(trail.healthy).toBe(true);
    expect(written).toHaveLength(1);
    expect(logged.at(-1)).toEqual(["info", "the audit log is written again: calls run again"]);
  });
});
