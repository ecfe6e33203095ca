/** A request or response without fields (upstream's empty messages). */
export type Empty = Record<string, never>;

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
  readonly targetAddress: string;
  readonly targetPort: number;
}

/**
 * How the initiator authenticates a login (upstream `AuthenticationType`). `ONE_WAY_CHAP`: the
 * target checks the initiator's CHAP user name and secret. `MUTUAL_CHAP`: that, and the
 * initiator checks the target with the node-wide secret set by `setMutualChapSecret`.
 */
export type AuthenticationType = "NONE" | "ONE_WAY_CHAP" | "MUTUAL_CHAP";

export interface AddTargetPortalRequest {
  readonly targetPortal: TargetPortal;
}
export type AddTargetPortalResponse = Empty;

export interface DiscoverTargetPortalRequest {
  readonly targetPortal: TargetPortal;
}
export interface DiscoverTargetPortalResponse {
  /** IQNs of the targets the portal offers, as the host reports them. */
  readonly iqns: readonly string[];
}

export interface RemoveTargetPortalRequest {
  readonly targetPortal: TargetPortal;
}
export type RemoveTargetPortalResponse = Empty;

export type ListTargetPortalsRequest = Empty;
export interface ListTargetPortalsResponse {
  readonly targetPortals: readonly ListedTargetPortal[];
}

export interface ConnectTargetRequest {
  readonly targetPortal: TargetPortal;
  /** The target's name: `iqn.…`, `eui.…` or `naa.…`, compared case-insensitively. */
  readonly iqn: string;
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
export type ConnectTargetResponse = Empty;

export interface DisconnectTargetRequest {
  readonly targetPortal: TargetPortal;
  readonly iqn: string;
}
export type DisconnectTargetResponse = Empty;

export interface GetTargetDisksRequest {
  readonly targetPortal: TargetPortal;
  readonly iqn: string;
}
export interface GetTargetDisksResponse {
  /**
   * Windows disk numbers of the target's LUNs, ascending: pass one as `diskNumber` to
   * `@csi-proxy/disk`. Upstream returned them as decimal strings; `String(n)` gives that form.
   */
  readonly diskIds: readonly number[];
}

export interface SetMutualChapSecretRequest {
  /** The node-wide secret targets must present in mutual CHAP. Redacted everywhere. */
  readonly mutualChapSecret: string;
}
export type SetMutualChapSecretResponse = Empty;
