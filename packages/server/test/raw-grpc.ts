// A v1 client built without gRPC libraries: node:http2 framing by hand, messages encoded by
// protobufjs (its own parser of the shipped .proto files), so nothing is shared with the
// server's @grpc/grpc-js + @grpc/proto-loader stack but the wire.
import { connect, constants, type ClientHttp2Session } from "node:http2";
import { connect as connectSocket } from "node:net";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

const protoRoot = fileURLToPath(new URL("../proto/", import.meta.url));

/** A gRPC reply: its status, details and (status 0) decoded message. */
export interface Reply {
  readonly code: number;
  readonly details: string;
  readonly message: Record<string, unknown> | undefined;
}

/** Options of one call. */
export interface CallOptions {
  /** Sent as `grpc-timeout`. */
  readonly timeoutMs?: number;
  /** Cancels the stream (RST_STREAM CANCEL) when aborted. */
  readonly signal?: AbortSignal;
  /** Custom metadata, sent as headers (e.g. `authorization`). */
  readonly metadata?: Readonly<Record<string, string>>;
}

function frame(payload: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

function unframe(body: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at + 5 <= body.length;) {
    if (body[at] !== 0) throw new Error("compressed gRPC message: not asked for");
    const length = body.readUInt32BE(at + 1);
    out.push(body.subarray(at + 5, at + 5 + length));
    at += 5 + length;
  }
  return out;
}

/** A client of one endpoint (`csi-proxy-<group>-<version>` socket). */
export class RawGrpcClient {
  readonly #session: ClientHttp2Session;
  readonly #root: protobuf.Root;
  readonly #service: protobuf.Service;
  readonly #sentAs: string;

  /**
   * `protoFile` like `disk/v1/api.proto`; `service` like `v1.Disk`; `sentAs` the service name the
   * calls' paths carry, by default `service` (another, to call a method an older version lacks);
   * `dial` opens the connection, by default to `socketPath` (a fake named pipe in tests).
   */
  constructor(
    socketPath: string,
    protoFile: string,
    service: string,
    sentAs = service,
    dial: () => Duplex = () => connectSocket(socketPath),
  ) {
    this.#sentAs = sentAs;
    this.#session = connect("http://localhost", { createConnection: dial });
    this.#session.on("error", () => undefined);
    // Field names as the proto spells them (upstream mixes disk_number, diskIDs, MutualChapSecret).
    this.#root = new protobuf.Root().loadSync(protoRoot + protoFile, { keepCase: true });
    this.#service = this.#root.lookupService(service);
  }

  /** The method names the proto declares. */
  methods(): string[] {
    return Object.keys(this.#service.methods);
  }

  /** Calls `method` with a plain object (protobufjs `fromObject` rules, e.g. "3260" for a uint32). */
  call(
    method: string,
    request: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<Reply> {
    const rpc = this.#service.methods[method];
    if (rpc === undefined) throw new Error(`no method ${method}`);
    const requestType = this.#root.lookupType(rpc.requestType);
    const responseType = this.#root.lookupType(rpc.responseType);
    const path = `/${this.#sentAs}/${method}`;
    const headers: Record<string, string> = {
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc+proto",
      te: "trailers",
    };
    if (options.timeoutMs !== undefined) headers["grpc-timeout"] = `${options.timeoutMs}m`;
    Object.assign(headers, options.metadata);
    const body = frame(requestType.encode(requestType.fromObject(request)).finish());
    return new Promise((resolve, reject) => {
      const stream = this.#session.request(headers);
      const chunks: Buffer[] = [];
      let meta: Record<string, string | string[] | number | undefined> = {};
      options.signal?.addEventListener("abort", () => stream.close(constants.NGHTTP2_CANCEL));
      // A trailers-only reply (an error) carries its status in the response headers.
      stream.on("response", (headers) => {
        meta = { ...meta, ...headers };
      });
      stream.on("trailers", (trailers) => {
        meta = { ...meta, ...trailers };
      });
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", reject);
      stream.on("close", () => {
        if (meta["grpc-status"] === undefined) {
          reject(new Error(`${path}: stream closed without a status (rst code ${stream.rstCode})`));
          return;
        }
        const code = Number(meta["grpc-status"]);
        const details = decodeURIComponent(String(meta["grpc-message"] ?? ""));
        const [payload] = unframe(Buffer.concat(chunks));
        const message =
          code === 0 && payload !== undefined
            ? (responseType.toObject(responseType.decode(payload), {
                longs: String,
                enums: String,
                defaults: true,
              }) as Record<string, unknown>)
            : undefined;
        resolve({ code, details, message });
      });
      stream.end(body);
    });
  }

  /** Closes the HTTP/2 session. */
  close(): void {
    this.#session.close();
  }
}
