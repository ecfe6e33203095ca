import type { EmptyResponse } from "@csi-proxy/exec";

/** Request of {@link Filesystem.pathExists}. */
export interface PathExistsRequest {
  /** The path to look at. */
  readonly path: string;
}
/** Response of {@link Filesystem.pathExists}. */
export interface PathExistsResponse {
  /** True for anything at the path, including a dangling link (the link itself exists). */
  readonly exists: boolean;
}

/** Request of {@link Filesystem.pathValid}: any path Windows can open, including UNC shares. */
export interface PathValidRequest {
  /** The path to open; not validated or sandboxed. */
  readonly path: string;
}
/** Response of {@link Filesystem.pathValid}. */
export interface PathValidResponse {
  /** True when the path can be opened (links followed); false when it does not resolve. */
  readonly valid: boolean;
}

/** Request of {@link Filesystem.mkdir}. */
export interface MkdirRequest {
  /** The directory to create, with its missing parents. */
  readonly path: string;
}
/** Response of {@link Filesystem.mkdir}: no fields. */
export type MkdirResponse = EmptyResponse;

/** Request of {@link Filesystem.rmdir}. */
export interface RmdirRequest {
  /** The directory (or link) to remove. */
  readonly path: string;
  /** Remove recursively, and succeed when the path is already gone. */
  readonly force?: boolean;
}
/** Response of {@link Filesystem.rmdir}: no fields. */
export type RmdirResponse = EmptyResponse;

/** Request of {@link Filesystem.rmdirContents}. */
export interface RmdirContentsRequest {
  /** The directory to empty; it is kept. */
  readonly path: string;
}
/** Response of {@link Filesystem.rmdirContents}: no fields. */
export type RmdirContentsResponse = EmptyResponse;

/** Request of {@link Filesystem.createSymlink}. */
export interface CreateSymlinkRequest {
  /** The existing file or directory the link points to. */
  readonly sourcePath: string;
  /** The link to create; it must not exist yet. */
  readonly targetPath: string;
  /**
   * Link to where `sourcePath` finally leads rather than to its name, so that nothing renamed or
   * replaced on its way later changes what the link shows: a volume's GUID path
   * (`\\?\Volume{guid}\...`) when the source lies in a volume mounted on a folder, a share's
   * UNC path when it is a link to a share (an SMB mapping's link). A source that leads to
   * neither, a plain folder whose name the caller could replace, is `PERMISSION_DENIED`.
   * Default false: the link records `sourcePath` as given, as upstream's does.
   */
  readonly pin?: boolean;
}
/** Response of {@link Filesystem.createSymlink}: no fields. */
export type CreateSymlinkResponse = EmptyResponse;

/** Request of {@link Filesystem.isSymlink}. */
export interface IsSymlinkRequest {
  /** The path to look at; it must exist. */
  readonly path: string;
}
/** Response of {@link Filesystem.isSymlink}. */
export interface IsSymlinkResponse {
  /** True for a link or mount point whose target exists; false for a dangling one or a plain entry. */
  readonly isSymlink: boolean;
}

/** Request of {@link Filesystem.inspect}. */
export interface InspectRequest {
  /** The name to look at; a link at it is not followed. */
  readonly path: string;
}
/**
 * Response of {@link Filesystem.inspect}: what the name is, by its reparse data on Windows
 * (`PathEntry`): `missing`; a `file` or `directory` (`empty` when it has no entries); a `link`
 * to a path (`target` as `readlink` gives it); a `share` link (`target` the UNC path); a
 * `volume` mount point or link (`target` the volume's GUID path); `opaque`, any other reparse
 * point (`target` absent).
 */
export interface InspectResponse {
  readonly kind: "missing" | "file" | "directory" | "link" | "share" | "volume" | "opaque";
  readonly target?: string;
  readonly empty?: boolean;
}
