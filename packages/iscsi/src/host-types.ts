import type { Endpoint } from "./attribute.js";
import type { CmdletAuthenticationType } from "./auth.js";
import type { Portal } from "./portal.js";

/** What {@link IscsiHost.addTargetPortal} did. */
export type HostAddPortalOutcome = "added" | "exists";

/** What {@link IscsiHost.removeTargetPortal} did. */
export type HostRemovePortalOutcome = "removed" | "absent";

/** Targets behind a portal, after a fresh SendTargets discovery. */
export interface HostDiscovery {
  /** False when no portal with that address and port is registered (nothing was discovered). */
  readonly portalFound: boolean;
  /** IQNs the portal offers. */
  readonly iqns: readonly string[];
}

/** A login request in the cmdlet's own terms (validated and mapped already). */
export interface HostConnectRequest {
  /** The registered portal to log in through. */
  readonly portal: Portal;
  /** The target's name. */
  readonly iqn: string;
  /** `-AuthenticationType` as the cmdlet spells it. */
  readonly authenticationType: CmdletAuthenticationType;
  /** "" for NONE. */
  readonly chapUsername: string;
  /** "" for NONE. Secret: travels only as a redacted script parameter. */
  readonly chapSecret: string;
  /** `-IsPersistent`: log in again at boot. */
  readonly isPersistent: boolean;
  /** `-IsMultipathEnabled`: allow a further session to the target. */
  readonly isMultipathEnabled: boolean;
}

/**
 * What {@link IscsiHost.connectTarget} did. `alreadyConnected`: a connected session to the
 * target already goes through this portal, or (without multipath) through any portal; no login
 * was attempted (but a requested persistent login was registered for it). `portalUnresolved`:
 * with multipath, the target has sessions but the portal's host name does not resolve, so none
 * can be told to go through it; nothing was done, rather than risk a duplicate session.
 */
export type HostConnectOutcome =
  "connected" | "alreadyConnected" | "portalNotFound" | "targetNotFound" | "portalUnresolved";

/** A connected session to a target. */
export interface HostSession {
  /** `SessionIdentifier` of the session. */
  readonly sessionIdentifier: string;
  /** The target's name as Get-IscsiSession reports it (lower-cased, PowerShell/PowerShell#17306). */
  readonly targetNodeAddress: string;
  /** A persistent ("favorite") login: Windows logs in again at boot unless it is unregistered. */
  readonly isPersistent: boolean;
  /**
   * Whether the session is the portal's: a connection to one of its addresses (an IP portal's
   * own, a host name's every resolved address) on its port, or no connection another registered
   * portal of the target can claim (a redirected login). `null`: the host cannot tell, which a
   * disconnect treats as the portal's.
   */
  readonly viaPortal: boolean | null;
}

/** One session to log out, and whether its persistent login is removed first. */
export interface HostLogout {
  /** `SessionIdentifier` of the session to log out. */
  readonly sessionIdentifier: string;
  /** The target's name as Windows stores it ({@link HostSession.targetNodeAddress}). */
  readonly targetNodeAddress: string;
  /** Unregister its persistent login first, so it does not come back at boot. */
  readonly unregister: boolean;
}

/** A disk of a target's session: its Windows number and its LUN (`null` when Windows does not say). */
export interface HostTargetDisk {
  /** The disk's Windows disk number. */
  readonly diskNumber: number;
  /** The LUN it is, from the disk's Location; `null` when Windows does not say. */
  readonly lun: number | null;
}

/** One iSCSI session as the initiator lists it: its target, connections and disks. */
export interface HostListedSession {
  /** The session's identifier, as the initiator reports it. */
  readonly sessionIdentifier: string;
  /** The target's name as the initiator reports it (lower-cased, as Get-IscsiSession's). */
  readonly targetNodeAddress: string;
  /** Where its connections go: the IP address and port each connected to. */
  readonly connections: readonly Endpoint[];
  /** Its disks, each with its LUN. */
  readonly disks: readonly HostTargetDisk[];
}

/** Every session of the node and every registered portal, read at one moment. */
export interface HostSessionListing {
  readonly sessions: readonly HostListedSession[];
  /** The registered portals, as registered (a host name stays a name). */
  readonly portals: readonly Portal[];
}

/** A registered portal and the targets discovery found on it. */
export interface HostPortalTargets {
  readonly portal: Portal;
  readonly iqns: readonly string[];
}

/** A session with its disks and the registered portals it goes through. */
export interface HostSessionDisks {
  readonly sessionIdentifier: string;
  /** The target's name as the initiator reports it. */
  readonly targetNodeAddress: string;
  /** The registered portals it goes through; empty when none can be shown to be. */
  readonly portals: readonly Portal[];
  readonly disks: readonly HostTargetDisk[];
}
