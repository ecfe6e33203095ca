import { join } from "node:path";
import {
  credentials,
  loadPackageDefinition,
  type Client,
  type GrpcObject,
  type ServiceDefinition,
} from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { protoDir } from "@csi-proxy/server";

type Unary = (request: object, callback: (error: Error | null, reply: unknown) => void) => void;

/** A v1alpha1 System client, as a driver's generated stub would be. */
export type SystemClient = Client & Record<string, Unary>;

type SystemConstructor = (new (
  address: string,
  creds: ReturnType<typeof credentials.createInsecure>,
) => SystemClient) & { service: ServiceDefinition };

/** The System v1alpha1 service from the server's own protos, so floor and server speak the same RPC. */
export function systemService(): SystemConstructor {
  const definition = loadSync(join(protoDir, "system/v1alpha1/api.proto"), {
    keepCase: true,
    includeDirs: [protoDir],
  });
  const v1alpha1 = loadPackageDefinition(definition).v1alpha1 as GrpcObject;
  return v1alpha1.System as unknown as SystemConstructor;
}

export function systemClient(socket: string): SystemClient {
  const System = systemService();
  return new System(`unix:${socket}`, credentials.createInsecure());
}

/** One GetBIOSSerialNumber, resolved when its answer is back. */
export function unaryCall(client: SystemClient): () => Promise<void> {
  return () =>
    new Promise<void>((resolve, reject) =>
      client.GetBIOSSerialNumber?.({}, (error) => (error === null ? resolve() : reject(error))),
    );
}
