import { createServer, type Server } from "node:http";
import { CsiProxyError } from "@csi-proxy/exec";
import type { ServerMetrics } from "./registry.js";

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

/**
 * Serves `GET /metrics` as upstream does (plain HTTP, no authentication: it shows counts and
 * latencies per RPC, never a caller, path or argument). Anything else is 404.
 */
export function serveMetrics(
  bindAddress: string,
  metrics: ServerMetrics,
): Promise<MetricsListener> {
  const { host, port } = parseBindAddress(bindAddress);
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain" }).end("404 page not found\n");
      return;
    }
    response.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
    response.end(request.method === "HEAD" ? undefined : metrics.render());
  });
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
