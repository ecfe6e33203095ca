export { Filesystem } from "./filesystem.js";
export type { FilesystemOptions } from "./filesystem.js";
export { createNodeFilesystemHost } from "./host.js";
export type { DirectoryEntry, FilesystemHost } from "./host.js";
export { isWithin, normalizePath, platformPathStyle } from "@csi-proxy/exec";
export type { PathRuleOptions, PathStyle } from "@csi-proxy/exec";
export type {
  CreateSymlinkRequest,
  IsSymlinkRequest,
  IsSymlinkResponse,
  MkdirRequest,
  PathExistsRequest,
  PathExistsResponse,
  PathValidRequest,
  PathValidResponse,
  RmdirContentsRequest,
  RmdirRequest,
} from "./types.js";
export { CsiProxyError, isCsiProxyError } from "@csi-proxy/exec";
export type { CsiProxyErrorCode } from "@csi-proxy/exec";
