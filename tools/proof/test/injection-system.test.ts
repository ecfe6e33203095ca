import { System } from "@csi-proxy/system";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { fit, hostile, without, withoutControl } from "./corpus.js";
import { useProofHost, type ProofHost } from "./proof-host.js";
import { proveValue, useStartCounter } from "./prove.js";

const runs = { numRuns: 20 };
// Names the validator lets through: no wildcards, slashes or control characters, ≤ 256 long.
const acceptedNames = hostile
  .map(without(/[*?[\]/\\]/g))
  .map(withoutControl)
  .map(fit(256));

describeWithPwsh("injection: every string parameter of System", (pwsh) => {
  const get = useProofHost(pwsh, {});
  const started = useStartCounter();
  let host: ProofHost;
  let system: System;

  beforeAll(() => {
    host = get();
    system = new System({ shell: host.shell });
  });

  it("name: Get-Service receives it byte-exact in every method, or it is rejected", async () => {
    const calls: ((name: string) => Promise<unknown>)[] = [
      (name) => system.getService({ name }),
      (name) => system.startService({ name, timeoutMs: 1_000 }),
      (name) => system.stopService({ name, timeoutMs: 1_000 }),
      (name) => system.stopService({ name, force: true, timeoutMs: 1_000 }),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(acceptedNames, hostile),
        fc.constantFrom(...calls),
        async (name, call) => {
          const code = await proveValue(host, started, () => call(name), {
            command: "Get-Service",
            parameter: "Name",
            value: name,
          });
          expect(code).not.toBe("ok");
        },
      ),
      runs,
    );
  });

  it("name: a service named by a payload is found, started and stopped by exactly that name", async () => {
    const original = host.sim.state().system?.services ?? [];
    const template = original[0];
    if (template === undefined) throw new Error("the scenario has no services");
    await fc.assert(
      fc.asyncProperty(
        acceptedNames.filter((name) => name.trim() !== ""),
        async (name) => {
          host.sim.update((state) => {
            const probe = {
              ...template,
              name,
              displayName: `shown ${name}`,
              dependsOn: [],
              canStop: true,
            };
            if (state.system === undefined) throw new Error("the scenario has no system state");
            state.system.services = [
              ...original.filter((s) => s.name.toLowerCase() !== name.toLowerCase()),
              { ...probe, status: 1, startDelayMs: 0, stopDelayMs: 0, transition: null },
            ];
          });
          const found = await system.getService({ name });
          expect(found.displayName).toBe(`shown ${name}`);
          expect(
            await proveValue(host, started, () => system.startService({ name }), undefined),
          ).toBe("ok");
          expect((await system.getService({ name })).statusName).toBe("RUNNING");
          expect(
            await proveValue(host, started, () => system.stopService({ name }), undefined),
          ).toBe("ok");
        },
      ),
      { numRuns: 10 },
    );
  });
});
