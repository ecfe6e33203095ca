import type { EmptyResponse } from "@csi-proxy/exec";

/**
 * An iSCSI target portal: where the initiator finds targets (SendTargets discovery) and logs in.
 * Upstream `TargetPortal{TargetAddress, TargetPort}`.
 */
export interface TargetPortal {
  /** A host name, or an IPv4 or IPv6 address (IPv6 with or without brackets). */
  readonly targetAddress: string;
  /** TCP port, 1 to 65535; `0` or leaving it out means the iSCSI default, 3260 (as upstream). */
  readonly targetPort?: number;
}

/** A portal as the host reports it: the port is always set. */
export interface ListedTargetPortal {
  /** The portal's address as the host reports it. */
  readonly targetAddress: string;
  /** The portal's TCP port. */
  readonly targetPort: number;
}

/**
 * How the initiator authenticates a login (upstream `AuthenticationType`). `ONE_WAY_CHAP`: the
 * target checks the initiator's CHAP user name and secret. `MUTUAL_CHAP`: that, and the
 * initiator checks the target with the node-wide secret set by `setMutualChapSecret`.
 */
export type AuthenticationType = "NONE" | "ONE_WAY_CHAP" | "MUTUAL_CHAP";

/** Request of {@link Iscsi.addTargetPortal}. */
export interface AddTargetPortalRequest {
  /** The portal to register. */
  readonly targetPortal: TargetPortal;
}
/** Response of {@link Iscsi.addTargetPortal}: empty. */
export type AddTargetPortalResponse = EmptyResponse;

/** Request of {@link Iscsi.discoverTargetPortal}. */
export interface DiscoverTargetPortalRequest {
  /** A registered portal to run discovery on again. */
  readonly targetPortal: TargetPortal;
}
/** Response of {@link Iscsi.discoverTargetPortal}. */
export interface DiscoverTargetPortalResponse {
  /** IQNs of the targets the portal offers, as the host reports them. */
  readonly iqns: readonly string[];
}

/** Request of {@link Iscsi.removeTargetPortal}. */
export interface RemoveTargetPortalRequest {
  /** The portal to remove; a portal that is not registered is success. */
  readonly targetPortal: TargetPortal;
}
/** Response of {@link Iscsi.removeTargetPortal}: empty. */
export type RemoveTargetPortalResponse = EmptyResponse;

/** Request of {@link Iscsi.listTargetPortals}: empty. */
export type ListTargetPortalsRequest = Record<string, never>;
/** Response of {@link Iscsi.listTargetPortals}. */
export interface ListTargetPortalsResponse {
  /** Every registered portal. */
  readonly targetPortals: readonly ListedTargetPortal[];
}

/** Request of {@link Iscsi.connectTarget}. */
export interface ConnectTargetRequest {
  /** A registered portal to log in through. */
  readonly targetPortal: TargetPortal;
  /** The target's name: `iqn.…`, `eui.…` or `naa.…`, compared case-insensitively. */
  readonly iqn: string;
  /** How the login authenticates. */
  readonly authType: AuthenticationType;
  /** Required (non-empty) for the CHAP types; must be empty or absent for `NONE`. Not secret. */
  readonly chapUsername?: string;
  /** Required (non-empty) for the CHAP types; must be empty or absent for `NONE`. Redacted everywhere. */
  readonly chapSecret?: string;
  /** Log in again after a reboot (a "favorite target"). Default false, as upstream. */
  readonly isPersistent?: boolean;
  /** Allow a further session to the target (MPIO), one per portal. Default false. */
  readonly isMultipathEnabled?: boolean;
}
/** Response of {@link Iscsi.connectTarget}: empty. */
export type ConnectTargetResponse = EmptyResponse;

/** Request of {@link Iscsi.disconnectTarget}. */
export interface DisconnectTargetRequest {
  /** The portal whose sessions to the target are logged out. */
  readonly targetPortal: TargetPortal;
  /** The target's name, compared case-insensitively. */
  readonly iqn: string;
}
/** Response of {@link Iscsi.disconnectTarget}: empty. */
export interface DisconnectTargetResponse {
  /** How many sessions of the target through the portal were found and logged out; 0 when none. */
  sessionsLoggedOut: number;
}

/** Request of {@link Iscsi.getTargetDisks}. */
export interface GetTargetDisksRequest {
  /** The portal the target was connected through. */
  readonly targetPortal: TargetPortal;
  /** The target's name, compared case-insensitively. */
  readonly iqn: string;
}
/** Response of {@link Iscsi.getTargetDisks}. */
export interface GetTargetDisksResponse {
  /**
   * Windows disk numbers of the target's LUNs, ascending: pass one as `diskNumber` to
   * `@csi-proxy/disk`. Upstream returned them as decimal strings; `String(n)` gives that form.
   */
  readonly diskIds: readonly number[];
  /**
   * The same disks, each with the target's LUN number (read from the disk's Location; `null`
   * when Windows does not give it), ascending by disk number: for targets with several LUNs.
   */
  readonly disks: readonly TargetDisk[];
}

/** A disk of a target: its Windows disk number and the LUN it is. */
export interface TargetDisk {
  /** The disk's Windows disk number. */
  readonly diskId: number;
  /** The LUN it is, from the disk's Location; `null` when Windows does not say. */
  readonly lun: number | null;
}

/** Request of {@link Iscsi.listSessionDisks}: empty. */
export type ListSessionDisksRequest = Record<string, never>;
/** Response of {@link Iscsi.listSessionDisks}. */
export interface ListSessionDisksResponse {
  /** Every iSCSI session of the node, in the order the initiator lists them. */
  readonly sessions: readonly SessionDisks[];
}

/** One iSCSI session: its target, the registered portals it goes through, and its disks. */
export interface SessionDisks {
  /** The session's identifier, as the initiator reports it. */
  readonly sessionId: string;
  /** The target's name, as Windows reports a session's (lower-cased). */
  readonly iqn: string;
  /**
   * The registered portals the session goes through, matched as {@link Iscsi.connectTarget} and
   * {@link Iscsi.disconnectTarget} match them (a connection to one of the portal's addresses; a
   * redirected login: the portals that offer its target); empty when none can be shown to be.
   */
  readonly targetPortals: readonly ListedTargetPortal[];
  /** Its disks, ascending by number, each with its LUN. */
  readonly disks: readonly TargetDisk[];
}

/** Request of {@link Iscsi.setMutualChapSecret}. */
export interface SetMutualChapSecretRequest {
  /** The node-wide secret targets must present in mutual CHAP. Redacted everywhere. */
  readonly mutualChapSecret: string;
}
/** Response of {@link Iscsi.setMutualChapSecret}: empty. */
export type SetMutualChapSecretResponse = EmptyResponse;
