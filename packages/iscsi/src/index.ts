export { Iscsi } from "./iscsi.js";
export type { IscsiOptions } from "./iscsi.js";
export { createPowerShellIscsiHost, iscsiScripts } from "./host.js";
export type { IscsiHost, PowerShellIscsiHostOptions } from "./host.js";
export { systemHostNameResolver } from "./resolve.js";
export type { HostNameResolver } from "./resolve.js";
export type {
  HostAddPortalOutcome,
  HostConnectOutcome,
  HostConnectRequest,
  HostDiscovery,
  HostLogout,
  HostRemovePortalOutcome,
  HostSession,
  HostSessionDisks,
  HostTargetDisk,
} from "./host-types.js";
export type { Portal } from "./portal.js";
export { defaultIscsiPort } from "./portal.js";
export { parseIqn, parseTargetPortal } from "./parsers.js";
export { authenticationTypes } from "./auth.js";
export type { CmdletAuthenticationType } from "./auth.js";
export { IscsiError, isIscsiError } from "./errors.js";
export type { IscsiErrorOptions } from "./errors.js";
export type { IscsiErrorReason } from "./hresults.js";
export type {
  AddTargetPortalRequest,
  AddTargetPortalResponse,
  AuthenticationType,
  ConnectTargetRequest,
  ConnectTargetResponse,
  DisconnectTargetRequest,
  DisconnectTargetResponse,
  DiscoverTargetPortalRequest,
  DiscoverTargetPortalResponse,
  GetTargetDisksRequest,
  GetTargetDisksResponse,
  TargetDisk,
  ListedTargetPortal,
  ListSessionDisksRequest,
  ListSessionDisksResponse,
  ListTargetPortalsRequest,
  ListTargetPortalsResponse,
  RemoveTargetPortalRequest,
  RemoveTargetPortalResponse,
  SetMutualChapSecretRequest,
  SessionDisks,
  SetMutualChapSecretResponse,
  TargetPortal,
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
