// A v1 client as democratic-csi builds one (csi-proxy-v1-server.md §1.4): @grpc/grpc-js with
// @grpc/proto-loader over the server's shipped protos, keepCase, longs and enums as strings,
// defaults filled in. Nothing of the server's own code but its .proto files.
import { join } from "node:path";
import {
  credentials,
  loadPackageDefinition,
  type ChannelOptions,
  type Client,
  type GrpcObject,
  type ServiceClientConstructor,
  type ServiceError,
} from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { protoDir, servedApis } from "@csi-proxy/server";

/** A gRPC reply: its status, details and (status 0) message. */
export interface Reply {
  readonly code: number;
  readonly details: string;
  readonly message: Record<string, unknown>;
}

type Callback = (error: ServiceError | null, reply: Record<string, unknown>) => void;
type Method = (request: object, options: { deadline?: number }, callback: Callback) => void;

const constructors = new Map<string, ServiceClientConstructor>();

/** The generated client class of one group-version (`disk`, `v1`): its `.service` serves too. */
export function serviceConstructor(group: string, version: string): ServiceClientConstructor {
  const key = `${group}/${version}`;
  const cached = constructors.get(key);
  if (cached !== undefined) return cached;
  const api = servedApis.find((a) => a.group === group && a.version === version);
  if (api === undefined) throw new Error(`the server serves no ${key}`);
  const definition = loadSync(join(protoDir, api.protoFile), {
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    includeDirs: [protoDir],
  });
  const pkg = loadPackageDefinition(definition)[version] as GrpcObject;
  const made = pkg[api.service] as ServiceClientConstructor;
  constructors.set(key, made);
  return made;
}

/** A client of one endpoint's Unix socket. */
export class V1Client {
  readonly #client: Client & Record<string, Method>;
  /** How many calls {@link V1Client.call} has sent. */
  sent = 0;

  /** `options`: grpc-js channel options (`grpc.default_authority` sends another :authority). */
  constructor(socket: string, group: string, version: string, options: ChannelOptions = {}) {
    const Service = serviceConstructor(group, version);
    this.#client = new Service(`unix:${socket}`, credentials.createInsecure(), options) as Client &
      Record<string, Method>;
  }

  /** Calls `method`; a status other than OK is a reply too, never a rejection. */
  call(method: string, request: object = {}, timeoutMs = 300_000): Promise<Reply> {
    const fn = this.#client[method];
    if (typeof fn !== "function") throw new Error(`no method ${method}`);
    this.sent++;
    return new Promise((resolve) => {
      fn.call(this.#client, request, { deadline: Date.now() + timeoutMs }, (error, reply) =>
        resolve(
          error === null
            ? { code: 0, details: "", message: reply }
            : { code: error.code, details: error.details, message: {} },
        ),
      );
    });
  }

  /** One call of `method` with an empty request and nothing around it, as the per-RPC rows time it. */
  bare(method: string): () => Promise<void> {
    const fn = this.#client[method];
    if (typeof fn !== "function") throw new Error(`no method ${method}`);
    return () =>
      new Promise<void>((resolve, reject) =>
        fn.call(this.#client, {}, {}, (error) => (error === null ? resolve() : reject(error))),
      );
  }

  close(): void {
    this.#client.close();
  }
}
