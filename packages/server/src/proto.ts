import { fileURLToPath } from "node:url";
import { loadPackageDefinition, type ServiceDefinition } from "@grpc/grpc-js";
import { loadSync, type Options } from "@grpc/proto-loader";
import type { ServedApi } from "./endpoints.js";

/** The package's proto files (shipped in the tarball beside `dist/`). */
export const protoDir = fileURLToPath(new URL("../proto/", import.meta.url));

// Field names as on the wire (upstream mixes snake_case, `diskIDs` and `MutualChapSecret`);
// 64-bit integers as decimal text, enums by name, proto3 defaults filled in.
const loaderOptions: Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  includeDirs: [protoDir],
};

/** The gRPC service definition of a served group-version, loaded from its proto file. */
export function serviceDefinition(api: ServedApi): ServiceDefinition {
  const loaded = loadPackageDefinition(loadSync(api.protoFile, loaderOptions));
  const pkg = loaded[api.version] as Record<string, unknown> | undefined;
  const client = pkg?.[api.service] as { service?: ServiceDefinition } | undefined;
  if (client?.service === undefined) {
    throw new Error(`${api.protoFile} does not define ${api.version}.${api.service}.`);
  }
  return client.service;
}
