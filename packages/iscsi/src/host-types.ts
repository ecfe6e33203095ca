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
  readonly iqns: readonly string[];
}

/** A login request in the cmdlet's own terms (validated and mapped already). */
export interface HostConnectRequest {
  readonly portal: Portal;
  readonly iqn: string;
  readonly authenticationType: CmdletAuthenticationType;
  /** "" for NONE. */
  readonly chapUsername: string;
  /** "" for NONE. Secret: travels only as a redacted script parameter. */
  readonly chapSecret: string;
  readonly isPersistent: boolean;
  readonly isMultipathEnabled: boolean;
}

/**
 * What {@link IscsiHost.connectTarget} did. `alreadyConnected`: a connected session to the
 * target already goes through this portal, or (without multipath) through any portal; no login
 * was attempted (but a requested persistent login was registered for it).
 */
export type HostConnectOutcome =
  "connected" | "alreadyConnected" | "portalNotFound" | "targetNotFound";

/** A connected session to a target. */
export interface HostSession {
  readonly sessionIdentifier: string;
  /** A persistent ("favorite") login: Windows logs in again at boot unless it is unregistered. */
  readonly isPersistent: boolean;
  /** Whether one of its connections goes to the portal's address and port. */
  readonly viaPortal: boolean;
}

/** One session to log out, and whether its persistent login is removed first. */
export interface HostLogout {
  readonly sessionIdentifier: string;
  readonly unregister: boolean;
}
