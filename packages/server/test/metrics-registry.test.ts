import { describe, expect, it } from "vitest";
import { parseBindAddress } from "../src/metrics/listener.js";
import { handlingBuckets, ServerMetrics } from "../src/metrics/registry.js";
import { servedRpcs } from "../src/metrics/serve.js";

const rpc = { service: "v1.Disk", rpc: "Rescan", endpointSet: "default" };
const labels =
  'grpc_method="Rescan",grpc_service="v1.Disk",grpc_type="unary",endpoint_set="default"';

describe("ServerMetrics: upstream's go-grpc-middleware server metrics", () => {
  it("registers every RPC at zero so a dashboard sees the series before the first call", () => {
    const text = new ServerMetrics([rpc]).render();
    expect(text).toContain(`grpc_server_started_total{${labels}} 0`);
    expect(text).toContain(`grpc_server_msg_received_total{${labels}} 0`);
    expect(text).toContain(`grpc_server_msg_sent_total{${labels}} 0`);
    expect(text).toContain(`grpc_server_handling_seconds_count{${labels}} 0`);
    expect(text).not.toContain("grpc_server_handled_total{");
  });

  it("labels each series with the endpoint set the call came in on", () => {
    const smb = { ...rpc, endpointSet: "smb" };
    const metrics = new ServerMetrics([rpc, smb]);
    metrics.begin(smb)(7);
    const text = metrics.render();
    expect(text).toContain(`grpc_server_started_total{${labels}} 0`);
    const onSmb = labels.replace('"default"', '"smb"');
    expect(text).toContain(`grpc_server_started_total{${onSmb}} 1`);
    expect(text).toContain(`grpc_server_handled_total{${onSmb},grpc_code="PermissionDenied"} 1`);
  });

  it("counts a call by its gRPC code name and its latency into upstream's buckets", () => {
    const metrics = new ServerMetrics([rpc]);
    let clock = 0;
    const now = () => clock;
    const ok = metrics.begin(rpc, now);
    clock = 250;
    ok(0);
    const denied = metrics.begin(rpc, now);
    clock = 255;
    denied(7);
    denied(7); // ending twice counts once
    const text = metrics.render();
    expect(text).toContain(`grpc_server_started_total{${labels}} 2`);
    expect(text).toContain(`grpc_server_msg_received_total{${labels}} 2`);
    expect(text).toContain(`grpc_server_msg_sent_total{${labels}} 1`);
    expect(text).toContain(`grpc_server_handled_total{${labels},grpc_code="OK"} 1`);
    expect(text).toContain(`grpc_server_handled_total{${labels},grpc_code="PermissionDenied"} 1`);
    expect(text).toContain(`grpc_server_handling_seconds_bucket{${labels},le="0.01"} 1`);
    expect(text).toContain(`grpc_server_handling_seconds_bucket{${labels},le="0.1"} 1`);
    expect(text).toContain(`grpc_server_handling_seconds_bucket{${labels},le="0.3"} 2`);
    expect(text).toContain(`grpc_server_handling_seconds_bucket{${labels},le="+Inf"} 2`);
    expect(text).toContain(`grpc_server_handling_seconds_sum{${labels}} 0.255`);
    expect(text).toMatch(/# TYPE grpc_server_handling_seconds histogram\n/);
  });

  it("has 2,780 series per endpoint set before the first call (README, Metrics)", () => {
    const series = (sets: string[]) =>
      new ServerMetrics(servedRpcs(sets))
        .render()
        .split("\n")
        .filter((line) => line !== "" && !line.startsWith("#")).length;
    // 139 RPCs, each: started, received, sent, and the histogram's 14 buckets, +Inf, sum, count.
    expect(servedRpcs(["default"])).toHaveLength(139);
    expect(series(["default"])).toBe(2780);
    expect(series(["default", "smb", "iscsi"])).toBe(3 * 2780);
  });

  it("uses upstream's buckets", () => {
    expect(handlingBuckets).toEqual([0.001, 0.01, 0.1, 0.3, 0.6, 1, 3, 6, 9, 20, 30, 60, 90, 120]);
  });
});

describe("parseBindAddress", () => {
  it.each([
    [":9090", { host: undefined, port: 9090 }],
    ["127.0.0.1:0", { host: "127.0.0.1", port: 0 }],
    ["[::1]:9090", { host: "::1", port: 9090 }],
    ["localhost:80", { host: "localhost", port: 80 }],
  ])("%s", (text, expected) => {
    expect(parseBindAddress(text)).toEqual(expected);
  });

  it.each(["9090", "host", "1.2.3.4:99999", "::1:80", "a:b"])("refuses %s", (text) => {
    expect(() => parseBindAddress(text)).toThrow(/--metrics-bind-address/);
  });
});
