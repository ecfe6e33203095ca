export { Smb } from "./smb.js";
export { createPowerShellSmbHost, smbScripts } from "./host.js";
export { createNodeSmbLinkHost } from "./link-host.js";
export { parseRemotePath } from "./remote-path.js";
export type { RemotePath } from "./remote-path.js";
export { normalizeLocalPath, platformPathStyle } from "./local-path.js";
export type { LocalPathRules, PathStyle } from "./local-path.js";
export { smbMappingStatusCodes, toMappingStatus } from "./status.js";
export type { SmbMappingStatus, SmbMappingStatusName } from "./status.js";
export type {
  SmbHost,
  SmbLinkHost,
  SmbMappingInfo,
  EnsureMappingRequest,
  MappingOutcome,
  LocalEntry,
} from "./host-types.js";
export type {
  SmbOptions,
  NewSmbGlobalMappingRequest,
  NewSmbGlobalMappingResponse,
  RemoveSmbGlobalMappingRequest,
  RemoveSmbGlobalMappingResponse,
  ListSmbGlobalMappingsRequest,
  ListSmbGlobalMappingsResponse,
  SmbGlobalMapping,
} from "./types.js";
export { CsiProxyError, isCsiProxyError } from "@csi-proxy/exec";
export type { CallContext, CallOptions, CsiProxyErrorCode, EmptyResponse } from "@csi-proxy/exec";
export { callOptionsFromGrpcCall, callOptionsFromNiceGrpc, grpcStatusOf } from "@csi-proxy/exec";
export type {
  GrpcCallOptionsSettings,
  GrpcServerCallLike,
  GrpcStatus,
  GrpcStatusName,
  HandlerCallOptions,
  NiceGrpcContextLike,
} from "@csi-proxy/exec";
