export { Disk } from "./disk.js";
export type { DiskOptions } from "./disk.js";
export { createPowerShellDiskHost } from "./host.js";
export type {
  DiskHost,
  HostDisk,
  HostDiskId,
  HostDiskLocation,
  HostDiskState,
  HostPartitionOutcome,
} from "./host.js";
export {
  DiskNotFoundError,
  DiskReadOnlyError,
  isDiskNotFoundError,
  isDiskReadOnlyError,
} from "./errors.js";
export { diskScripts } from "./host.js";
export { parsePage83Id } from "./validate.js";
export type {
  DiskIds,
  DiskIdsError,
  DiskLocation,
  DiskNumberRequest,
  GetDiskNumberByPage83Request,
  GetDiskNumberByPage83Response,
  GetDiskStateRequest,
  GetDiskStateResponse,
  GetDiskStatsRequest,
  GetDiskStatsResponse,
  ListDiskIdsRequest,
  ListDiskIdsResponse,
  ListDiskLocationsRequest,
  ListDiskLocationsResponse,
  PartitionDiskRequest,
  PartitionDiskResponse,
  RescanRequest,
  RescanResponse,
  SetDiskStateRequest,
  SetDiskStateResponse,
} from "./types.js";
// Error guards and the shared empty response, so a driver using this group alone needs no exec import.
export { CsiProxyError, isCsiProxyError } from "@csi-proxy/exec";
export type { CallOptions, CsiProxyErrorCode, EmptyResponse } from "@csi-proxy/exec";
export { callOptionsFromGrpcCall, callOptionsFromNiceGrpc, grpcStatusOf } from "@csi-proxy/exec";
export type {
  GrpcCallOptionsSettings,
  GrpcServerCallLike,
  GrpcStatus,
  GrpcStatusName,
  HandlerCallOptions,
  NiceGrpcContextLike,
} from "@csi-proxy/exec";
