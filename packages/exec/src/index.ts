export { ps, isScript, definedScripts } from "./script.js";
export type { Script, ScriptTag } from "./script.js";
export { createPowerShell } from "./powershell.js";
export type { PowerShell } from "./powershell.js";
export type { PowerShellStats } from "./session-pool.js";
export { dotnetRuntimeDefaults } from "./config.js";
export type { PowerShellOptions } from "./config.js";
export type { EmptyResponse, ExecMode, ParamValue, Params, RunOptions } from "./types.js";
export { CsiProxyError, isCsiProxyError, invalidArgument } from "./errors.js";
export { brandedGuard } from "./brand.js";
export type { CsiProxyErrorCode, CsiProxyErrorOptions } from "./errors.js";
export {
  PowerShellError,
  failureReason,
  isPowerShellError,
  parseErrorId,
} from "./powershell-error.js";
export type {
  PowerShellErrorRecord,
  PowerShellErrorDetails,
  ErrorIdInfo,
} from "./powershell-error.js";
export { execChannels, subscribeExec } from "./diagnostics.js";
export type {
  ExecChannel,
  ExecChannelEvents,
  ExecStartEvent,
  ExecEndEvent,
  ExecErrorEvent,
} from "./diagnostics.js";
export { createRedactor, minAnywhereSecretLength } from "./redact.js";
export type { Redactor } from "./redact.js";
export { parseJson } from "./json.js";
export { transportScripts } from "./host-script.js";
export { createKeyedLock } from "./keyed-lock.js";
export { checkCallOptions } from "./call-options.js";
export type { CallOptions, CheckedCallOptions } from "./call-options.js";
export { callOptionsFromGrpcCall, callOptionsFromNiceGrpc } from "./grpc-call-options.js";
export type {
  GrpcCallOptionsSettings,
  GrpcServerCallLike,
  HandlerCallOptions,
  NiceGrpcContextLike,
} from "./grpc-call-options.js";
export { grpcStatusByErrorCode, grpcStatusCodes, grpcStatusOf } from "./grpc-status.js";
export type { GrpcStatus, GrpcStatusName } from "./grpc-status.js";
export { abortError, noCallContext, withCallContext } from "./call-context.js";
export type { CallContext } from "./call-context.js";
export type { KeyedLock } from "./keyed-lock.js";
export {
  foldWindowsName,
  isWithin,
  normalizePath,
  platformPathStyle,
  separatorOf,
} from "./paths.js";
export type { PathRuleOptions, PathStyle } from "./paths.js";
export { ownRequest, requestFields, validateUint32 } from "./validate.js";
export { bindHost } from "./host-binding.js";
export { groupOptions, objectOption, pathStyleOption } from "./group-options.js";
export type { HostBinding, HostOptions } from "./host-binding.js";
