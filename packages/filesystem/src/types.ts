/** Request of {@link Filesystem.pathExists}. */
export interface PathExistsRequest {
  readonly path: string;
}
export interface PathExistsResponse {
  /** True for anything at the path, including a dangling link (the link itself exists). */
  readonly exists: boolean;
}

/** Request of {@link Filesystem.pathValid}: any path Windows can open, including UNC shares. */
export interface PathValidRequest {
  readonly path: string;
}
export interface PathValidResponse {
  /** True when the path can be opened (links followed); false when it does not resolve. */
  readonly valid: boolean;
}

export interface MkdirRequest {
  readonly path: string;
}

export interface RmdirRequest {
  readonly path: string;
  /** Remove recursively, and succeed when the path is already gone. */
  readonly force?: boolean;
}

export interface RmdirContentsRequest {
  readonly path: string;
}

export interface CreateSymlinkRequest {
  /** The existing file or directory the link points to. */
  readonly sourcePath: string;
  /** The link to create; it must not exist yet. */
  readonly targetPath: string;
}

export interface IsSymlinkRequest {
  readonly path: string;
}
export interface IsSymlinkResponse {
  /** True for a link or mount point whose target exists; false for a dangling one or a plain entry. */
  readonly isSymlink: boolean;
}
