import type { HostOptions } from "@csi-proxy/exec";
import type { SmbHost, SmbLinkHost } from "./host-types.js";
import type { PathStyle } from "./local-path.js";
import type { SmbMappingStatusName } from "./status.js";

/** Options of the {@link Smb} constructor. */
export interface SmbOptions extends HostOptions<SmbHost> {
  /** The link host layer (Node's `fs` by default); a simulator test translates UNC targets here. */
  links?: SmbLinkHost;
  /** Rules for `localPath`; `"windows"` on win32 and `"posix"` elsewhere by default. */
  pathStyle?: PathStyle;
  /** Drive for root-relative Windows local paths such as `\var\lib\kubelet\...`. Default `C:`. */
  systemDrive?: string;
}

/** Request of {@link Smb.newSmbGlobalMapping}. */
export interface NewSmbGlobalMappingRequest {
  /** `\\server\share` or a folder below it (`/` accepted); the mapping is made for the share root. */
  remotePath: string;
  /** Where to link the full remote path (e.g. a staging path); nothing is linked when absent. */
  localPath?: string;
  /** User for the share, e.g. `DOMAIN\user`; requires `password`. Absent or `""`: no credential. */
  username?: string;
  /** Secret: travels only as a script parameter and never appears in errors or diagnostics. */
  password?: string;
  /** SMB encryption (`-RequirePrivacy`). Default `true`; set `false` for servers without it. */
  requirePrivacy?: boolean;
}

/** Response of {@link Smb.newSmbGlobalMapping}. */
export interface NewSmbGlobalMappingResponse {
  /** `created`: new; `reused`: a working one existed; `recreated`: a broken or not-OK one was replaced. */
  mapping: "created" | "reused" | "recreated";
  /** `created`: the link was made; `existing`: it already pointed there; `none`: no `localPath`. */
  link: "created" | "existing" | "none";
}

/** Request of {@link Smb.removeSmbGlobalMapping}. */
export interface RemoveSmbGlobalMappingRequest {
  /** `\\server\share` or a path below it: the share root's mapping is removed. */
  remotePath: string;
}

/** Response of {@link Smb.removeSmbGlobalMapping}. */
export interface RemoveSmbGlobalMappingResponse {
  /** False when there was no mapping (still a success). */
  removed: boolean;
}

/** Request of {@link Smb.listSmbGlobalMappings}: no fields. */
export type ListSmbGlobalMappingsRequest = Record<string, never>;

/** One entry of {@link ListSmbGlobalMappingsResponse}. */
export interface SmbGlobalMapping {
  /** As Windows stores it, e.g. `\\server\share`. */
  remotePath: string;
  /** Drive letter of the mapping, when it has one. */
  localPath?: string;
  /** Readable status, e.g. `OK` or `Unavailable`. */
  status: SmbMappingStatusName;
  /** Windows' numeric status: 0 OK, 1 Paused, 2 Disconnected, 3 NetworkError, 4 Connecting, 5 Reconnecting, 6 Unavailable; -1 unrecognised. */
  statusCode: number;
}

/** Response of {@link Smb.listSmbGlobalMappings}. */
export interface ListSmbGlobalMappingsResponse {
  /** Every global mapping on the node, with its status. */
  mappings: SmbGlobalMapping[];
}
