import type { CallContext } from "@csi-proxy/exec";
import type { SmbMappingStatus } from "./status.js";

/** A global mapping as the host sees it. */
export interface SmbMappingInfo extends SmbMappingStatus {
  /** As Windows stores it, e.g. `\\server\share`. */
  readonly remotePath: string;
  /** The drive letter (`G:`), or undefined for a mapping without one (what this package creates). */
  readonly localPath?: string | undefined;
}

/** The mapping of one share root and whether its path still opens. */
export interface SmbMappingState extends SmbMappingInfo {
  /**
   * `Test-Path` on the share root: false when the mapping is stale (typically the password
   * changed); undefined when not tested because the status is not OK.
   */
  readonly pathValid?: boolean | undefined;
}

/** What {@link SmbHost.newMapping} is asked to do. Values are validated; credentials come in pairs. */
export interface NewMappingRequest {
  /** The canonical share root, `\\server\share` in lower case. */
  readonly shareRoot: string;
  /** The user for `-Credential`; no credential is passed without it. */
  readonly username?: string | undefined;
  /** Secret: becomes the `Password` script parameter only, redacted everywhere. */
  readonly password?: string | undefined;
  /** `-RequirePrivacy` (SMB encryption). */
  readonly requirePrivacy: boolean;
  /** Remove the existing mapping of this share root first (a broken or not-OK one). */
  readonly replace: boolean;
}

/**
 * The PowerShell side of {@link Smb}: global mappings. The default runs one constant script per
 * method through `@csi-proxy/exec`; unit tests inject a fake, integration tests may run the
 * default against a simulator. Arguments are already validated. Failures are thrown as they
 * come (e.g. `PowerShellError`); `Smb` maps them to codes and keeps secrets out of them. Every
 * method's last parameter, `context`, is the calling method's deadline and signal
 * (`noCallContext` when left out).
 */
export interface SmbHost {
  /** The mapping whose remote path is `shareRoot` (compared case-insensitively), tested; undefined if none. */
  getMapping(shareRoot: string, context?: CallContext): Promise<SmbMappingState | undefined>;
  /** Creates the mapping (after removing the old one when `replace`), in a single call. */
  newMapping(request: NewMappingRequest, context?: CallContext): Promise<void>;
  /** Removes the mapping of `shareRoot`; false when there was none. */
  removeMapping(shareRoot: string, context?: CallContext): Promise<boolean>;
  /** Every global mapping on the node. */
  listMappings(context?: CallContext): Promise<SmbMappingInfo[]>;
}

/** What is at a local path, links not followed. */
export type LocalEntry =
  | {
      /** Nothing is there. */
      readonly kind: "missing";
    }
  | {
      /** A symbolic link or junction. */
      readonly kind: "link";
      /** The link's target as stored. */
      readonly target: string;
    }
  | {
      /** A plain directory. */
      readonly kind: "directory";
      /** Whether it has no entries. */
      readonly empty: boolean;
    }
  | {
      /** A file. */
      readonly kind: "file";
    };

/**
 * The link side of {@link Smb}: the symbolic link at `localPath` that points at the share.
 * Separate from {@link SmbHost} because it is plain file system work (Node's `fs` by default)
 * and because a simulated Windows host on Linux has no UNC paths: its tests inject a link host
 * that translates `\\server\share\...` to a local folder. Every method's last parameter,
 * `context`, is the calling method's deadline and signal; `Smb` also checks it between steps.
 */
export interface SmbLinkHost {
  /** What is at `path`; a link reports its target as stored. */
  readLink(path: string, context?: CallContext): Promise<LocalEntry>;
  /** Removes the empty directory at `path` (fails if it is not empty). */
  removeEmptyDirectory(path: string, context?: CallContext): Promise<void>;
  /** Creates `path` (and missing parent folders) as a directory symbolic link to `target`. */
  createLink(path: string, target: string, context?: CallContext): Promise<void>;
}
