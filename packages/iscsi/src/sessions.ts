import { noCallContext, type CallContext } from "@csi-proxy/exec";
import { endpointKey, endpointKeys } from "./attribute.js";
import type { HostPortalTargets, HostSessionDisks, HostSessionListing } from "./host-types.js";
import { resolvePortal, type HostNameResolver } from "./resolve.js";

/**
 * Which registered portals each session goes through, as connectTarget and disconnectTarget tell
 * it: a portal whose endpoints (its text and the addresses its name resolves to, on its port) a
 * connection of the session goes to. A session no portal claims so (a target that redirected the
 * login to a data address, RFC 7143 §11.13.5) goes through the portals that offer its target,
 * read by `targetsOf` only then; while one of those portals' names does not resolve, only such
 * portals (it might be theirs), the less generous answer.
 */
export async function attributeListing(
  listing: HostSessionListing,
  resolve: HostNameResolver,
  targetsOf: () => Promise<readonly HostPortalTargets[]>,
  context: CallContext = noCallContext,
): Promise<HostSessionDisks[]> {
  const answers = await Promise.all(listing.portals.map((p) => resolvePortal(p, resolve, context)));
  const portals = listing.portals.map((portal, i) => ({
    portal,
    resolved: answers[i] !== null,
    keys: endpointKeys([portal.address], portal.port, answers[i] ?? null),
  }));
  let offers: readonly HostPortalTargets[] | undefined;
  const out: HostSessionDisks[] = [];
  for (const session of listing.sessions) {
    const keys = session.connections.map((c) => endpointKey(c.address, c.port));
    let claiming = portals.filter((p) => keys.some((key) => p.keys.has(key)));
    if (claiming.length === 0 && portals.length > 0) {
      offers ??= await targetsOf();
      const offering = portals.filter((p) =>
        offers?.some(
          (o) =>
            endpointKey(o.portal.address, o.portal.port) ===
              endpointKey(p.portal.address, p.portal.port) &&
            o.iqns.some((iqn) => iqn.toLowerCase() === session.targetNodeAddress.toLowerCase()),
        ),
      );
      const unresolved = offering.filter((p) => !p.resolved);
      claiming = unresolved.length > 0 ? unresolved : offering;
    }
    out.push({
      sessionIdentifier: session.sessionIdentifier,
      targetNodeAddress: session.targetNodeAddress,
      portals: claiming.map((p) => p.portal),
      disks: session.disks,
    });
  }
  return out;
}
