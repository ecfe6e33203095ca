import type { Grants } from "./grants.js";
import { samePortal, type PortalKey } from "./match.js";

/** A session a disk is on: its target, and the registered portals it goes through. */
export interface SessionFact {
  readonly iqn: string;
  /** Undefined when the answer it came from does not say (GetTargetDisks). */
  readonly portals: readonly PortalKey[] | undefined;
}

/** What a disk says of itself, as `Disk.listDiskIds` reads it. */
export interface IdentityFact {
  readonly page83: string;
  readonly serialNumber: string;
  /** The disk Windows booted from or keeps its system on (`MSFT_Disk.IsBoot` or `IsSystem`). */
  readonly isSystemDisk: boolean;
}

/** A fact and when the host call that read it started (`performance.now()`). */
export interface Dated<T> {
  readonly fact: T;
  readonly at: number;
}

export function portalGranted(grants: Grants, portal: PortalKey): boolean {
  return grants.iscsiPortals === "any" || grants.iscsiPortals.some((p) => samePortal(p, portal));
}

export function iqnGranted(grants: Grants, iqn: string): boolean {
  return grants.iscsiTargets.some((pattern) => pattern.test(iqn));
}

/** Whether the grants name disks by what the disks say of themselves (page 83 id, serial). */
export function byIdentity(grants: Grants): boolean {
  return grants.page83.length > 0 || grants.serialNumbers.length > 0;
}

/**
 * `"disks": { "ofIscsiTargets": true }`: a session to a granted target, through a granted portal
 * (any portal when the grants say `*`; a session whose portals are not known is no grant then).
 */
export function sessionGranted(grants: Grants, session: SessionFact): boolean {
  if (!grants.disksOfIscsiTargets || !iqnGranted(grants, session.iqn)) return false;
  if (grants.iscsiPortals === "any") return true;
  return session.portals?.some((portal) => portalGranted(grants, portal)) ?? false;
}

/**
 * `page83` and `serialNumbers` patterns: a disk whose id a pattern matches, never the node's own
 * boot or system disk, which wide patterns (`vol*`, a vendor's NAA prefix) match as well as a
 * driver's volumes (issue #34: EBS, vSphere and Azure boot disks share their data disks' prefixes).
 */
export function identityGranted(grants: Grants, identity: IdentityFact): boolean {
  if (identity.isSystemDisk) return false;
  const matches = (value: string, patterns: readonly RegExp[]) =>
    value !== "" && patterns.some((p) => p.test(value));
  return (
    matches(identity.page83, grants.page83) || matches(identity.serialNumber, grants.serialNumbers)
  );
}
