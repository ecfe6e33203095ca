export { startServer, defaultKubeletPath, defaultPowershellPool } from "./server.js";
export type { RunningServer, ServerOptions, SimulatorFolders } from "./server.js";
export { servedApis } from "./endpoints.js";
export type { ApiGroup, ServedApi } from "./endpoints.js";
export { protoDir } from "./proto.js";
export { grpcStatusOf } from "./status.js";
export { parseCommand, usage, UsageError } from "./args.js";
export type { Command } from "./args.js";
export { runServer, exitCodes } from "./main.js";
export { serverVersion } from "./version.js";
export type { RunHooks, Streams } from "./main.js";
export type { LogSettings } from "./logging/klog-flags.js";
export type { ServerLogger } from "./logging/logger.js";
export type { Rotation } from "./log-file.js";
export { policySchemaPath, v1CompatiblePolicy } from "./policy/load.js";
export { defaultMaxFactAgeMs } from "./policy/ownership.js";
export { defaultCallDeadlineMs } from "./call-defaults.js";
export type {
  CallerSpec,
  DiskGrantSpec,
  PolicySpec,
  RuleSpec,
  ServiceAccountSpec,
} from "./policy/spec.js";
export type { AuditCall, AuditOutcome, AuditRecord, AuditSink } from "./audit.js";
export { UnauthenticatedError } from "./identity.js";
export type { TokenSettings } from "./identity.js";
export { defaultTokenAudience } from "./args.js";
export type { NamedPipeOptions } from "./transport.js";
export type { PipeApi, PipeHandle } from "./pipes/api.js";
export { Win32Error } from "./pipes/api.js";
export { defaultWireLimits } from "./wire-limits.js";
export type { WireLimits } from "./wire-limits.js";
