// What a full disk does to the audit log (issue #35 item 5): every call is refused with
// UNAVAILABLE and nothing runs on the host (the audit log's promise: no call without its line),
// the server's log says why once, the failures are counted and /readyz turns 503. Linux's
// /dev/full answers every write with ENOSPC, as a full disk does.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBin, type RunningBin } from "./harness.js";

const UNAVAILABLE = 14;

describeWithPwsh("the audit log on a full disk", (pwsh) => {
  let bin: RunningBin | undefined;
  const linux = process.platform === "linux";

  beforeAll(async () => {
    if (!linux) return;
    const dir = mkdtempSync(join(tmpdir(), "csi-full-"));
    const policy = join(dir, "policy.json");
    const rule = { name: "r", callers: [{ local: true }], methods: ["system.GetBIOSSerialNumber"] };
    writeFileSync(policy, JSON.stringify({ version: 1, rules: [rule] }));
    bin = await startBin(pwsh, [
      "--simulate",
      "--policy",
      policy,
      "--audit-log",
      "/dev/full",
      "--metrics-bind-address",
      "127.0.0.1:0",
    ]);
  });

  afterAll(async () => {
    if (bin !== undefined) expect(await bin.stop()).toBe(0);
  });

  it.skipIf(!linux)(
    "refuses every call with UNAVAILABLE, runs nothing, says why once, and is not ready",
    async () => {
      if (bin === undefined) return;
      const { ready } = bin;
      const stderr = () => bin?.stderr() ?? "";
      const system = bin.client("system-v1alpha1");
      for (const [method, request] of [
        ["GetBIOSSerialNumber", {}],
        ["GetService", { name: "MSiSCSI" }], // denied: its deny line cannot be written either
        ["GetBIOSSerialNumber", {}],
      ] as const) {
        const reply = await system.call(method, request);
        expect(reply.code).toBe(UNAVAILABLE);
        expect(reply.details).toBe("The call was not run: the server cannot write its audit log.");
      }
      const calls = join(ready.simulator.dir, "calls.jsonl");
      expect(existsSync(calls) ? readFileSync(calls, "utf8").trim() : "").toBe("");
      const logged = () =>
        stderr()
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      await expect
        .poll(() => logged().filter((line) => line.status === "UNAVAILABLE").length)
        .toBe(3);
      expect(logged().filter((line) => line.level === "error" && line.code === "ENOSPC")).toEqual([
        expect.objectContaining({
          msg: "the audit log cannot be written: every call is refused (UNAVAILABLE) until it can",
        }),
      ]);
      const address = ready.metricsAddress ?? "";
      const readyz = await fetch(`http://${address}/readyz`);
      expect(readyz.status).toBe(503);
      expect(await readyz.text()).toContain("[-]audit-log failed: cannot write\n");
      const metrics = await (await fetch(`http://${address}/metrics`)).text();
      expect(metrics).toContain("csi_proxy_server_audit_write_failures_total 3\n");
    },
  );
});
