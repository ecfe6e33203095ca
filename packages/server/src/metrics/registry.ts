/**
 * The gRPC server metrics upstream's v1 server exports with `--metrics-bind-address` (csi-proxy
 * #371: go-grpc-middleware's prometheus provider with its handling-time histogram), under the
 * same names, labels and buckets so existing dashboards and alerts keep working, plus the
 * `endpoint_set` a call came in on. Rendered by hand rather than through prom-client: with every
 * RPC registered at zero per set (2,780 series a set), prom-client took 18 to 29 ms a scrape (one
 * to three sets), blocking the event loop every call shares, where this takes 2 to 7 ms (README,
 * "Metrics").
 */

// Upstream's buckets (pkg/server/metrics/metrics.go), in seconds.
export const handlingBuckets: readonly number[] = [
  0.001, 0.01, 0.1, 0.3, 0.6, 1, 3, 6, 9, 20, 30, 60, 90, 120,
];

// grpc-go's codes.Code.String(), which go-grpc-middleware writes as `grpc_code`.
const codeNames: readonly string[] = [
  "OK",
  "Canceled",
  "Unknown",
  "InvalidArgument",
  "DeadlineExceeded",
  "NotFound",
  "AlreadyExists",
  "PermissionDenied",
  "ResourceExhausted",
  "FailedPrecondition",
  "Aborted",
  "OutOfRange",
  "Unimplemented",
  "Internal",
  "Unavailable",
  "DataLoss",
  "Unauthenticated",
];

interface Histogram {
  readonly counts: number[];
  sum: number;
  count: number;
}

/** One RPC on one endpoint set: labels `grpc_service` (`v1.Disk`), `grpc_method`, `endpoint_set`. */
export interface RpcLabels {
  readonly service: string;
  readonly rpc: string;
  readonly endpointSet: string;
}

function escape(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function labelText(labels: Readonly<Record<string, string>>): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escape(v)}"`);
  return `{${parts.join(",")}}`;
}

function number(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(12)));
}

/** Counts RPCs the way go-grpc-middleware's server metrics do, and renders Prometheus text. */
export class ServerMetrics {
  readonly #started = new Map<string, number>();
  readonly #received = new Map<string, number>();
  readonly #sent = new Map<string, number>();
  readonly #handled = new Map<string, number>();
  readonly #handling = new Map<string, Histogram>();

  /** Registers every RPC at zero, as go-grpc-middleware's `InitializeMetrics` does. */
  constructor(rpcs: readonly RpcLabels[] = []) {
    for (const rpc of rpcs) {
      const key = labelText(this.#labels(rpc));
      this.#started.set(key, 0);
      this.#received.set(key, 0);
      this.#sent.set(key, 0);
      this.#handling.set(key, this.#emptyHistogram());
    }
  }

  /** A unary RPC began (its one request was received); returns the function that ends it. */
  begin(rpc: RpcLabels, now: () => number = () => performance.now()): (code: number) => void {
    const labels = this.#labels(rpc);
    const key = labelText(labels);
    const at = now();
    this.#add(this.#started, key);
    this.#add(this.#received, key);
    let ended = false;
    return (code) => {
      if (ended) return;
      ended = true;
      if (code === 0) this.#add(this.#sent, key);
      const name = codeNames[code] ?? `Code(${code})`;
      this.#add(this.#handled, labelText({ ...labels, grpc_code: name }));
      this.#observe(key, (now() - at) / 1000);
    };
  }

  /** The metrics in Prometheus' text exposition format 0.0.4. */
  render(): string {
    const lines: string[] = [];
    const counter = (name: string, help: string, values: Map<string, number>) => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      for (const [key, value] of values) lines.push(`${name}${key} ${value}`);
    };
    counter(
      "grpc_server_handled_total",
      "Total number of RPCs completed on the server, regardless of success or failure.",
      this.#handled,
    );
    lines.push(
      "# HELP grpc_server_handling_seconds Histogram of response latency (seconds) of gRPC that had been application-level handled by the server.",
      "# TYPE grpc_server_handling_seconds histogram",
    );
    for (const [key, histogram] of this.#handling) {
      const inner = key.slice(1, -1);
      handlingBuckets.forEach((bound, i) => {
        lines.push(
          `grpc_server_handling_seconds_bucket{${inner},le="${number(bound)}"} ${histogram.counts[i] ?? 0}`,
        );
      });
      lines.push(`grpc_server_handling_seconds_bucket{${inner},le="+Inf"} ${histogram.count}`);
      lines.push(`grpc_server_handling_seconds_sum${key} ${number(histogram.sum)}`);
      lines.push(`grpc_server_handling_seconds_count${key} ${histogram.count}`);
    }
    counter(
      "grpc_server_msg_received_total",
      "Total number of RPC stream messages received on the server.",
      this.#received,
    );
    counter(
      "grpc_server_msg_sent_total",
      "Total number of gRPC stream messages sent by the server.",
      this.#sent,
    );
    counter(
      "grpc_server_started_total",
      "Total number of RPCs started on the server.",
      this.#started,
    );
    return `${lines.join("\n")}\n`;
  }

  #labels(rpc: RpcLabels): Record<string, string> {
    return {
      grpc_method: rpc.rpc,
      grpc_service: rpc.service,
      grpc_type: "unary",
      endpoint_set: rpc.endpointSet,
    };
  }

  #add(map: Map<string, number>, key: string): void {
    map.set(key, (map.get(key) ?? 0) + 1);
  }

  #emptyHistogram(): Histogram {
    return { counts: handlingBuckets.map(() => 0), sum: 0, count: 0 };
  }

  #observe(key: string, seconds: number): void {
    let histogram = this.#handling.get(key);
    if (histogram === undefined) {
      histogram = this.#emptyHistogram();
      this.#handling.set(key, histogram);
    }
    handlingBuckets.forEach((bound, i) => {
      if (seconds <= bound && histogram.counts[i] !== undefined) histogram.counts[i] += 1;
    });
    histogram.sum += seconds;
    histogram.count += 1;
  }
}
