export { Filesystem } from "./filesystem.js";
export type { FilesystemOptions } from "./filesystem.js";
export { createNodeFilesystemHost } from "./host.js";
export type { NodeFilesystemHostOptions } from "./host.js";
export type { Boundaries } from "./boundaries.js";
export { inspectEntry } from "./inspect.js";
export { classifyReparsePoint, reparseTags } from "./reparse.js";
export type { PathEntry, ReparsePoint } from "./reparse.js";
export { createWin32ReparseReader, REPARSE_PROTOTYPES } from "./reparse-win32.js";
export type { KoffiLike } from "./reparse-win32.js";
export { checkPathWithinRoots } from "./within-roots.js";
export type { PathWithinRootsOptions } from "./within-roots.js";
export type { DirectoryEntry, FilesystemHost } from "./host.js";
export type { HeldDirectory } from "./held-directory.js";
export { isWithin, normalizePath, platformPathStyle } from "@csi-proxy/exec";
export type { PathRuleOptions, PathStyle } from "@csi-proxy/exec";
export type {
  CreateSymlinkRequest,
  CreateSymlinkResponse,
  IsSymlinkRequest,
  IsSymlinkResponse,
  InspectRequest,
  InspectResponse,
  MkdirRequest,
  MkdirResponse,
  PathExistsRequest,
  PathExistsResponse,
  PathValidRequest,
  PathValidResponse,
  RmdirContentsRequest,
  RmdirContentsResponse,
  RmdirRequest,
  RmdirResponse,
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
