import type { PowerShellStats } from "@csi-proxy/exec";
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";

/** What the process metrics read when scraped. */
export interface ProcessMetricSources {
  /** The server's version (`csi_proxy_server_build_info`). */
  readonly version: string;
  /** The PowerShell pool now, when the host can say. */
  readonly pool: () => PowerShellStats | undefined;
  /** Audit lines that could not be written so far. */
  readonly auditFailures: () => number;
}

/**
 * The metrics that are not per RPC, through prom-client: its default process and Node.js metrics
 * (CPU, memory, open handles, event-loop lag, GC), the PowerShell pool's gauges, audit write
 * failures and the build info. Each is read when scraped, so a call pays nothing for them.
 */
export function processMetrics(sources: ProcessMetricSources): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: "csi_proxy_server_build_info",
    help: "The server's version; always 1.",
    labelNames: ["version", "node_version"],
    registers: [registry],
  }).set({ version: sources.version, node_version: process.version }, 1);
  new Gauge({
    name: "csi_proxy_server_powershell_processes",
    help: "PowerShell processes of the pool: busy running a call, or idle.",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const stats = sources.pool();
      this.set({ state: "busy" }, stats?.busy ?? 0);
      this.set({ state: "idle" }, stats?.idle ?? 0);
    },
  });
  new Gauge({
    name: "csi_proxy_server_powershell_queued_calls",
    help: "Calls waiting for a free PowerShell process.",
    registers: [registry],
    collect() {
      this.set(sources.pool()?.queued ?? 0);
    },
  });
  new Counter({
    name: "csi_proxy_server_audit_write_failures_total",
    help: "Audit lines that could not be written; each refused its call.",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(sources.auditFailures());
    },
  });
  return registry;
}
