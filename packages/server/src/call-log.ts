import { status } from "@grpc/grpc-js";
import { outcomeLine, type AuditSink } from "./audit.js";
import { CallTrace } from "./call-trace.js";
import type { ServerLogger } from "./logging/logger.js";
import type { ServerMetrics } from "./metrics/registry.js";

/** Where a call came in: its endpoint in an endpoint set, its service and RPC. */
export interface CallSite {
  /** `<group>-<version>` (`disk-v1`). */
  readonly endpoint: string;
  /** The endpoint set (`default` for upstream's names). */
  readonly endpointSet: string;
  /** `<version>.<Service>` (`v1.Disk`). */
  readonly service: string;
  /** The RPC's name in its service (`GetDiskStats`). */
  readonly rpc: string;
  /** The policy's name of the RPC, `group.Method`. */
  readonly method: string;
}

/** What hears of every call: the server's log, the audit log, the metrics. */
export interface CallObservers {
  readonly log: ServerLogger;
  readonly audit: AuditSink;
  readonly metrics?: ServerMetrics | undefined;
}

/** A call being served: its trace for the guard, and how it ends. */
export interface ObservedCall {
  readonly trace: CallTrace;
  /** The call is answered with `code` (and, on failure, the details the caller gets). */
  end(code: status, details?: string): void;
}

// The server's or the node's failures, not the caller's.
const serverSide = new Set<status>([
  status.UNKNOWN,
  status.INTERNAL,
  status.UNAVAILABLE,
  status.DATA_LOSS,
]);

/**
 * Starts observing one call. Its end is counted in the metrics, written to the audit log when
 * the call was allowed (its outcome line; a refusal's line already ended it) and logged: a
 * failure by the caller's fault at `warn`, the server's or the node's at `error`, a success at
 * `debug` (`-v=2`), as klog's V(2) request lines were upstream.
 */
export function observeCall(site: CallSite, peer: string, observers: CallObservers): ObservedCall {
  const trace = new CallTrace();
  const metrics = observers.metrics?.begin(site);
  const { method, endpoint, endpointSet } = site;
  observers.log.trace({ call: trace.id, method, endpoint, endpointSet, peer }, "call started");
  let ended = false;
  return {
    trace,
    end(code, details) {
      if (ended) return;
      ended = true;
      metrics?.(code);
      const durationMs = trace.elapsedMs();
      const failed = code !== status.OK;
      const error = failed ? { error: details ?? "" } : {};
      const where = { call: trace.id, caller: trace.caller, method, endpoint, endpointSet, peer };
      if (trace.audited && !trace.closed) {
        const time = new Date().toISOString();
        const outcome = { time, ...where, status: status[code], durationMs, ...error };
        try {
          observers.audit(outcomeLine(outcome));
        } catch {
          // The call has run: its allow line is written; the trail has logged why this one is not.
        }
      }
      const fields = { ...where, status: status[code], code, durationMs, ...error };
      if (!failed) observers.log.debug(fields, "call");
      else if (serverSide.has(code)) observers.log.error(fields, "call failed");
      else observers.log.warn(fields, "call failed");
    },
  };
}
