import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { CsiProxyError } from "@csi-proxy/exec";
import { readinessText, type Check } from "../health.js";

/** A running `/metrics` listener. */
export interface MetricsListener {
  /** The address it listens on, `host:port` (the port the system chose when given 0). */
  readonly address: string;
  /** Stops listening. */
  close(): Promise<void>;
}

/** Splits `--metrics-bind-address` (`:9090`, `127.0.0.1:9090`, `[::1]:9090`) into host and port. */
export function parseBindAddress(text: string): { host: string | undefined; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (match === null || port > 65_535) {
    throw new CsiProxyError(
      `--metrics-bind-address ${JSON.stringify(text)}: expected host:port, :port or [v6]:port.`,
      { code: "INVALID_ARGUMENT" },
    );
  }
  const host = match[1] ?? match[2];
  return { host: host === "" ? undefined : host, port };
}

/** What the listener serves: the metrics' text, and the readiness checks. */
export interface MetricsPages {
  /** Every metric, in Prometheus' text exposition format 0.0.4. */
  readonly metrics: () => Promise<string>;
  /** `/readyz`'s checks. */
  readonly ready: () => Promise<readonly Check[]>;
}

const text = "text/plain; charset=utf-8";

async function page(path: string, pages: MetricsPages): Promise<[number, string, string]> {
  if (path === "/metrics")
    return [200, "text/plain; version=0.0.4; charset=utf-8", await pages.metrics()];
  if (path === "/healthz") return [200, text, "ok\n"];
  const { ready, text: body } = readinessText(await pages.ready());
  return [ready ? 200 : 503, text, body];
}

function answer(request: IncomingMessage, response: ServerResponse, pages: MetricsPages): void {
  const path = (request.url ?? "").split("?")[0] ?? "";
  const known = ["/metrics", "/healthz", "/readyz"].includes(path);
  if (!known || (request.method !== "GET" && request.method !== "HEAD")) {
    response.writeHead(404, { "content-type": "text/plain" }).end("404 page not found\n");
    return;
  }
  page(path, pages).then(
    ([status, type, body]) => {
      response.writeHead(status, { "content-type": type });
      response.end(request.method === "HEAD" ? undefined : body);
    },
    () => response.writeHead(500, { "content-type": text }).end("internal error\n"),
  );
}

/**
 * Serves `GET /metrics` as upstream does (plain HTTP, no authentication: it shows counts and
 * latencies per RPC and endpoint set, never a caller, path or argument), `/healthz` (the process
 * answers) and `/readyz` (200 when ready, else 503, with a line per check). Anything else is 404.
 */
export function serveMetrics(bindAddress: string, pages: MetricsPages): Promise<MetricsListener> {
  const { host, port } = parseBindAddress(bindAddress);
  const server: Server = createServer((request, response) => answer(request, response, pages));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, ...(host === undefined ? {} : { host }) }, () => {
      server.off("error", reject);
      const bound = server.address();
      const address =
        typeof bound === "object" && bound !== null
          ? `${bound.family === "IPv6" ? `[${bound.address}]` : bound.address}:${bound.port}`
          : bindAddress;
      resolve({
        address,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
