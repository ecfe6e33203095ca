import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { startBin } from "./harness.js";

const PERMISSION_DENIED = 7;

describeWithPwsh("--metrics-bind-address: upstream's Prometheus gRPC metrics", (pwsh) => {
  it("counts granted and denied calls by code at /metrics, and serves nothing else", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csi-srv-metrics-"));
    const policy = join(dir, "policy.json");
    const rules = [
      { name: "reader", callers: [{ local: true }], methods: ["system.GetBIOSSerialNumber"] },
    ];
    writeFileSync(policy, JSON.stringify({ version: 1, rules }));
    const bin = await startBin(pwsh, [
      "--simulate",
      "--policy",
      policy,
      "--audit-log",
      join(dir, "audit.jsonl"),
      "--metrics-bind-address",
      "127.0.0.1:0",
    ]);
    try {
      const address = bin.ready.metricsAddress ?? "";
      expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
      const system = bin.client("system-v1alpha1");
      expect((await system.call("GetBIOSSerialNumber", {})).code).toBe(0);
      expect((await system.call("GetService", { name: "MSiSCSI" })).code).toBe(PERMISSION_DENIED);
      const response = await fetch(`http://${address}/metrics`);
      expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
      const text = await response.text();
      const serial =
        'grpc_method="GetBIOSSerialNumber",grpc_service="v1alpha1.System",grpc_type="unary"';
      const service = 'grpc_method="GetService",grpc_service="v1alpha1.System",grpc_type="unary"';
      expect(text).toContain(`grpc_server_handled_total{${serial},grpc_code="OK"} 1`);
      expect(text).toContain(`grpc_server_msg_sent_total{${serial}} 1`);
      expect(text).toContain(
        `grpc_server_handled_total{${service},grpc_code="PermissionDenied"} 1`,
      );
      expect(text).toContain(`grpc_server_started_total{${service}} 1`);
      expect(text).toContain(
        'grpc_server_started_total{grpc_method="Rescan",grpc_service="v1.Disk",grpc_type="unary"} 0',
      );
      // Counts only: no caller, path or argument reaches the metrics.
      expect(text).not.toContain("MSiSCSI");
      expect(text).not.toContain("local");
      expect((await fetch(`http://${address}/`)).status).toBe(404);
      expect((await fetch(`http://${address}/metrics`, { method: "POST" })).status).toBe(404);
    } finally {
      expect(await bin.stop()).toBe(0);
    }
  });
});
