export { Volume } from "./volume.js";
export { maxPathSteps } from "./outcomes.js";
export { createPowerShellVolumeHost, volumeScripts } from "./host.js";
export { SupportedSizeUnavailableError, isSupportedSizeUnavailableError } from "./errors.js";
export { minimumResizeBytes } from "./resize.js";
export { parseVolumeId } from "./validate.js";
export type {
  VolumeHost,
  VolumeInfo,
  ResizeOutcome,
  PartitionLayout,
  MountOutcome,
  UnmountOutcome,
  PathLookup,
  HostVolumeDisk,
} from "./host-types.js";
export type {
  PathStyle,
  VolumeFileSystem,
  ByteCount,
  VolumeOptions,
  ListVolumeDisksRequest,
  ListVolumeDisksResponse,
  VolumeDisks,
  ListVolumesOnDiskRequest,
  ListVolumesOnDiskResponse,
  MountVolumeRequest,
  MountVolumeResponse,
  UnmountVolumeRequest,
  UnmountVolumeResponse,
  VolumeIdRequest,
  IsVolumeFormattedRequest,
  IsVolumeFormattedResponse,
  FormatVolumeRequest,
  FormatVolumeResponse,
  ResizeVolumeRequest,
  ResizeVolumeResponse,
  GetVolumeStatsRequest,
  GetVolumeStatsResponse,
  GetDiskNumberFromVolumeIdRequest,
  GetDiskNumberFromVolumeIdResponse,
  TargetPathRequest,
  GetVolumeIdFromTargetPathRequest,
  GetVolumeIdFromTargetPathResponse,
  GetClosestVolumeIdFromTargetPathRequest,
  GetClosestVolumeIdFromTargetPathResponse,
  VolumeIdResponse,
  WriteVolumeCacheRequest,
  WriteVolumeCacheResponse,
  ListVolumeMountPointsRequest,
  ListVolumeMountPointsResponse,
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
