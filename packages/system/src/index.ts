export { System, defaultServiceTimeoutMs, servicePollMs, serviceReportMarginMs } from "./system.js";
export type { SystemOptions } from "./system.js";
export { ServiceStatus, StartType } from "./enums.js";
export type { ServiceStatusName, StartTypeName } from "./enums.js";
export {
  isServiceHasDependentsError,
  isServiceNotFoundError,
  isServiceStateError,
  isServiceTimeoutError,
  ServiceHasDependentsError,
  ServiceNotFoundError,
  ServiceStateError,
  ServiceTimeoutError,
} from "./errors.js";
export type { ServiceTimeoutDetails } from "./errors.js";
export { createPowerShellSystemHost, systemScripts } from "./host.js";
export type {
  HostDependencies,
  HostDependentEdge,
  HostService,
  HostServiceWait,
  HostWait,
  SystemHost,
} from "./host.js";
export type {
  GetBiosSerialNumberRequest,
  GetBiosSerialNumberResponse,
  GetServiceRequest,
  GetServiceResponse,
  StartServiceRequest,
  StopServiceRequest,
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
