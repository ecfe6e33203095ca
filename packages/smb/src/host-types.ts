import type { CallContext } from "@csi-proxy/exec";
import type { SmbMappingStatus } from "./status.js";

/** A global mapping as the host sees it. */
export interface SmbMappingInfo extends SmbMappingStatus {
  /** As Windows stores it, e.g. `\\server\share`. */
  readonly remotePath: string;
  /** The drive letter (`G:`), or undefined for a mapping without one (what this package creates). */
  readonly localPath?: string | undefined;
}

/** What {@link SmbHost.ensureMapping} is asked to do. Values are validated; credentials come in pairs. */
export interface EnsureMappingRequest {
  /** The canonical share root, `\\server\share` in lower case. */
  readonly shareRoot: string;
  /** The user for `-Credential`; no credential is passed without it. */
  readonly username?: string | undefined;
  /** Secret: becomes the `Password` script parameter only, redacted everywhere. */
  readonly password?: string | undefined;
  /** `-RequirePrivacy` (SMB encryption). */
  readonly requirePrivacy: boolean;
}

/**
 * What {@link SmbHost.ensureMapping} did: `reused` a mapping whose status is OK and whose path
 * opens, `recreated` one that was not (removed, then created), or `created` one where there was none.
 */
export type MappingOutcome = "created" | "reused" | "recreated";

/**
 * The PowerShell side of {@link Smb}: global mappings. The default runs one constant script per
 * method through `@csi-proxy/exec`; unit tests inject a fake, integration tests may run the
 * default against a simulator. Arguments are already validated. Failures are thrown as they
 * come (e.g. `PowerShellError`); `Smb` maps them to codes and keeps secrets out of them. Every
 * method's last parameter, `context`, is the calling method's deadline and signal
 * (`noCallContext` when left out).
 */
export interface SmbHost {
  /**
   * In a single call: finds the mapping whose remote path is `shareRoot` (compared
   * case-insensitively), reuses it when its status is OK and its path opens, else removes it and
   * creates it anew; creates it when there is none.
   */
  ensureMapping(request: EnsureMappingRequest, context?: CallContext): Promise<MappingOutcome>;
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
