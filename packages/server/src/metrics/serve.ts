import type { PowerShell } from "@csi-proxy/exec";
import type { AuditTrail } from "../audit-trail.js";
import { servedApis } from "../endpoints.js";
import { readiness } from "../health.js";
import type { ServerLogger } from "../logging/logger.js";
import { serviceDefinition } from "../proto.js";
import { serverVersion } from "../version.js";
import { serveMetrics, type MetricsListener } from "./listener.js";
import { processMetrics } from "./process.js";
import type { RpcLabels, ServerMetrics } from "./registry.js";

/** Every RPC of every endpoint set, as the metrics label them. */
export function servedRpcs(endpointSets: readonly string[]): RpcLabels[] {
  return endpointSets.flatMap((endpointSet) =>
    servedApis.flatMap((api) =>
      Object.keys(serviceDefinition(api)).map((rpc) => ({
        service: `${api.version}.${api.service}`,
        rpc,
        endpointSet,
      })),
    ),
  );
}

/** What the metrics address shows of a running server. */
export interface ObservedServer {
  /** The per-RPC metrics the calls update. */
  readonly metrics: ServerMetrics;
  /** Every endpoint by key, once they listen. */
  readonly endpoints: () => Readonly<Record<string, string>> | undefined;
  readonly shell: PowerShell;
  readonly trail: AuditTrail;
  readonly log: ServerLogger;
}

/**
 * Serves, at `--metrics-bind-address`, upstream's gRPC metrics with the process metrics after
 * them, `/healthz` and `/readyz`.
 */
export function serveObservability(
  bindAddress: string,
  server: ObservedServer,
): Promise<MetricsListener> {
  const { metrics, shell, trail, log } = server;
  const others = processMetrics({
    version: serverVersion,
    pool: () => shell.stats?.(),
    auditFailures: () => trail.failures,
  });
  const ready = readiness({
    endpoints: server.endpoints,
    shell,
    auditHealthy: () => trail.healthy,
    log,
  });
  return serveMetrics(bindAddress, {
    metrics: async () => `${metrics.render()}${await others.metrics()}`,
    ready,
  });
}
