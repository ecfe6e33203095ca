import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Simulator } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBin, type RunningBin } from "./harness.js";

const PERMISSION_DENIED = 7;

const packageVersion = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

describeWithPwsh("--metrics-bind-address: metrics, health and readiness", (pwsh) => {
  let bin: RunningBin;
  let address: string;
  const get = async (path: string) => {
    const response = await fetch(`http://${address}${path}`);
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      text: await response.text(),
    };
  };
  const metric = async (name: string) => {
    const line = (await get("/metrics")).text.split("\n").find((l) => l.startsWith(`${name} `));
    return Number(line?.split(" ")[1]);
  };

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "csi-srv-metrics-"));
    const policy = join(dir, "policy.json");
    const rules = [
      {
        name: "reader",
        callers: [{ local: true }],
        methods: ["system.GetBIOSSerialNumber", "system.GetService"],
        services: ["Spooler"],
      },
    ];
    writeFileSync(policy, JSON.stringify({ version: 1, rules }));
    bin = await startBin(pwsh, [
      "--simulate",
      "--policy",
      policy,
      "--audit-log",
      join(dir, "audit.jsonl"),
      "--metrics-bind-address",
      "127.0.0.1:0",
      "--endpoint-set",
      "default",
      "--endpoint-set",
      "smb",
      "--powershell-pool",
      "1",
    ]);
    address = bin.ready.metricsAddress ?? "";
  });

  afterAll(async () => {
    expect(await bin.stop()).toBe(0);
  });

  it("counts granted and denied calls by code and endpoint set at /metrics, and serves nothing else", async () => {
    expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
    const system = bin.client("system-v1alpha1");
    expect((await system.call("GetBIOSSerialNumber", {})).code).toBe(0);
    expect((await system.call("GetService", { name: "MSiSCSI" })).code).toBe(PERMISSION_DENIED);
    const onSmb = bin.client("smb/system-v1alpha1");
    expect((await onSmb.call("GetService", { name: "MSiSCSI" })).code).toBe(PERMISSION_DENIED);
    const { type, text } = await get("/metrics");
    expect(type).toContain("text/plain; version=0.0.4");
    const rpc = (method: string, set = "default") =>
      `grpc_method="${method}",grpc_service="v1alpha1.System",grpc_type="unary",endpoint_set="${set}"`;
    const serial = rpc("GetBIOSSerialNumber");
    expect(text).toContain(`grpc_server_handled_total{${serial},grpc_code="OK"} 1`);
    expect(text).toContain(`grpc_server_msg_sent_total{${serial}} 1`);
    expect(text).toContain(
      `grpc_server_handled_total{${rpc("GetService")},grpc_code="PermissionDenied"} 1`,
    );
    expect(text).toContain(
      `grpc_server_handled_total{${rpc("GetService", "smb")},grpc_code="PermissionDenied"} 1`,
    );
    expect(text).toContain(`grpc_server_started_total{${rpc("GetService")}} 1`);
    expect(text).toContain(`grpc_server_started_total{${rpc("GetBIOSSerialNumber", "smb")}} 0`);
    expect(text).toContain(
      'grpc_server_started_total{grpc_method="Rescan",grpc_service="v1.Disk",grpc_type="unary",endpoint_set="smb"} 0',
    );
    // Counts only: no caller, path or argument reaches the metrics.
    expect(text).not.toContain("MSiSCSI");
    expect(text).not.toContain("local");
    expect((await get("/")).status).toBe(404);
    expect((await fetch(`http://${address}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("exports the build info, process metrics and the pool's gauges", async () => {
    const { text } = await get("/metrics");
    expect(text).toContain(
      `csi_proxy_server_build_info{version="${packageVersion}",node_version="${process.version}"} 1`,
    );
    for (const name of [
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "process_start_time_seconds",
      "nodejs_eventloop_lag_seconds",
      "nodejs_heap_size_used_bytes",
      "csi_proxy_server_audit_write_failures_total",
    ])
      expect(Number.isFinite(await metric(name)), name).toBe(true);
    const sim = await Simulator.open(bin.ready.simulator.dir);
    const gate = sim.block({ command: "Get-Service" });
    const system = bin.client("system-v1alpha1");
    const held = system.call("GetService", { name: "Spooler" });
    await gate.met();
    const queued = system.call("GetBIOSSerialNumber", {});
    await expect.poll(() => metric("csi_proxy_server_powershell_queued_calls")).toBe(1);
    expect(await metric('csi_proxy_server_powershell_processes{state="busy"}')).toBe(1);
    expect(await metric('csi_proxy_server_powershell_processes{state="idle"}')).toBe(0);
    gate.release();
    expect((await held).code).toBe(0);
    expect((await queued).code).toBe(0);
    expect(await metric("csi_proxy_server_powershell_queued_calls")).toBe(0);
    expect(await metric('csi_proxy_server_powershell_processes{state="busy"}')).toBe(0);
  });

  it("answers /healthz while alive, and /readyz with a line per check", async () => {
    expect(await get("/healthz")).toMatchObject({ status: 200, text: "ok\n" });
    expect(await get("/readyz")).toMatchObject({
      status: 200,
      text: "[+]endpoints ok\n[+]powershell ok\n[+]audit-log ok\nreadyz check passed\n",
    });
  });

  it("is not ready once an endpoint no longer listens", async () => {
    rmSync(bin.ready.endpoints["smb/disk-v1"] ?? "");
    // A result younger than 2 s is answered again.
    await expect
      .poll(async () => (await get("/readyz")).text, { timeout: 10_000, interval: 500 })
      .toContain("[-]endpoints failed: 1 of 46 not listening: smb/disk-v1\n");
    const readyz = await get("/readyz");
    expect(readyz.status).toBe(503);
    expect(readyz.text).toMatch(/\[\+\]powershell ok\n\[\+\]audit-log ok\nreadyz check failed\n$/);
    expect((await get("/healthz")).status).toBe(200);
  });
});
