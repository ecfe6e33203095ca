import { attributeSessions, chooseLogouts } from "./attribute.js";
import {
  noCallContext,
  type CallContext,
  type Params,
  type PowerShell,
  type RunOptions,
  type Script,
} from "@csi-proxy/exec";
import type {
  HostAddPortalOutcome,
  HostConnectOutcome,
  HostConnectRequest,
  HostDiscovery,
  HostRemovePortalOutcome,
  HostSessionDisks,
  HostTargetDisk,
} from "./host-types.js";
import {
  parseDiscovery,
  parseTargetDisks,
  parseOutcome,
  parsePortals,
  parseDisconnect,
  parsePortalTargets,
  parseSessionListing,
} from "./parse.js";
import type { Portal } from "./portal.js";
import { resolvePortal, systemHostNameResolver, type HostNameResolver } from "./resolve.js";
import { attributeListing } from "./sessions.js";
import {
  addPortalScript,
  connectScript,
  disconnectScript,
  discoverScript,
  listPortalsScript,
  listPortalTargetsScript,
  listSessionsScript,
  logoutScript,
  removePortalScript,
  setChapSecretScript,
  targetDisksScript,
} from "./scripts.js";

/** Every script the iSCSI group runs, by name, for audits and static checks. */
export const iscsiScripts: Readonly<Record<string, Script>> = Object.freeze({
  listPortals: listPortalsScript,
  addPortal: addPortalScript,
  removePortal: removePortalScript,
  discover: discoverScript,
  connect: connectScript,
  disconnect: disconnectScript,
  logout: logoutScript,
  targetDisks: targetDisksScript,
  listSessions: listSessionsScript,
  listPortalTargets: listPortalTargetsScript,
  setChapSecret: setChapSecretScript,
});

/**
 * Script parameters that carry secrets. Their names contain "Secret", so exec redacts them by
 * name anyway; listing them makes that independent of exec's naming rule.
 */
export const secretParameters: readonly string[] = Object.freeze(["ChapSecret"]);

/**
 * The host operations {@link Iscsi} is built from: each is one host call (one PowerShell script
 * by default) that checks state and acts in the same call, so concurrent callers in other
 * processes see few windows. Inputs are validated and normalised already; failures reject with
 * the host's error (a `PowerShellError` carrying the cmdlet's `HRESULT 0xefff....` id), which
 * {@link Iscsi} maps to typed codes. Portals are identified by their registered address
 * (case-insensitive) and port; a session goes through a portal when a connection of it goes to
 * one of the portal's resolved addresses. IQNs compare case-insensitively. Every method's last
 * parameter, `context`, is the calling method's deadline and signal (`noCallContext` when left
 * out): its scripts and host-name lookups end with it.
 */
export interface IscsiHost {
  /** Every registered target portal. */
  listTargetPortals(context?: CallContext): Promise<readonly Portal[]>;
  /** Registers the portal (New-IscsiTargetPortal, which discovers) unless it exists. */
  addTargetPortal(portal: Portal, context?: CallContext): Promise<HostAddPortalOutcome>;
  /** Removes the portal if it is registered. */
  removeTargetPortal(portal: Portal, context?: CallContext): Promise<HostRemovePortalOutcome>;
  /** Re-runs discovery on a registered portal and lists its targets' IQNs. */
  discoverTargets(portal: Portal, context?: CallContext): Promise<HostDiscovery>;
  /** Logs in unless a connected session already serves the request (see HostConnectOutcome). */
  connectTarget(request: HostConnectRequest, context?: CallContext): Promise<HostConnectOutcome>;
  /**
   * Logs out of the target `iqn`'s connected sessions through the portal (a connection to one
   * of its addresses, or one no other registered portal of the target can claim: see
   * {@link HostSession.viaPortal}); sessions other portals claim stay. Every persistent login to
   * remove is unregistered before any logout, and each session is logged out naming the target as
   * Windows does (its target object, else the session's name). Returns how many it logged out.
   * A session that vanishes before its logout fails the call with ISDSC_INVALID_SESSION_ID.
   */
  disconnectTarget(portal: Portal, iqn: string, context?: CallContext): Promise<number>;
  /** The disks of every connected session to `iqn`, each with its LUN; empty when none. */
  getTargetDisks(iqn: string, context?: CallContext): Promise<readonly HostTargetDisk[]>;
  /**
   * Every session of the node with its disks and the registered portals it goes through
   * (matched as connectTarget and disconnectTarget match them: see {@link attributeListing}).
   */
  listSessionDisks(context?: CallContext): Promise<readonly HostSessionDisks[]>;
  /** Sets the initiator's node-wide mutual CHAP secret. */
  setMutualChapSecret(secret: string, context?: CallContext): Promise<void>;
}

/** Options of {@link createPowerShellIscsiHost}. */
export interface PowerShellIscsiHostOptions {
  /**
   * Resolves a portal's host name to its addresses, to tell which sessions go through it.
   * Default: the operating system's resolver (`dns.lookup` with `all: true`).
   */
  resolveHostName?: HostNameResolver | undefined;
}

/**
 * The PowerShell-backed {@link IscsiHost}: every method is one call of a constant script, and
 * secrets travel only as redacted parameters. A host-name portal is resolved in Node before a
 * connect or a disconnect, because connections report IP addresses; a disconnect whose sessions
 * another host-name portal might claim takes a second script (`iscsi.logout`) after Node's
 * resolver has attributed them.
 *
 * @example
 * ```ts
 * const iscsi = new Iscsi({ host: createPowerShellIscsiHost(createPowerShell()) });
 * ```
 */
export function createPowerShellIscsiHost(
  shell: PowerShell,
  options: PowerShellIscsiHostOptions = {},
): IscsiHost {
  const resolve = options.resolveHostName ?? systemHostNameResolver;
  const portalParams = (portal: Portal) => ({
    TargetPortalAddress: portal.address,
    TargetPortalPortNumber: portal.port,
  });
  // Every script draws on the calling method's deadline; alone, a host call has none.
  const run = (
    script: Script,
    params: Params | undefined,
    context: CallContext | undefined,
    extra?: RunOptions,
  ): Promise<unknown> => shell.run(script, params, (context ?? noCallContext).runOptions(extra));

  return {
    async listTargetPortals(context) {
      return parsePortals(await run(listPortalsScript, undefined, context));
    },
    async addTargetPortal(portal, context) {
      const result = await run(addPortalScript, portalParams(portal), context);
      return parseOutcome(result, addPortalScript.name, ["added", "exists"]);
    },
    async removeTargetPortal(portal, context) {
      const result = await run(removePortalScript, portalParams(portal), context);
      return parseOutcome(result, removePortalScript.name, ["removed", "absent"]);
    },
    async discoverTargets(portal, context) {
      return parseDiscovery(await run(discoverScript, portalParams(portal), context));
    },
    async connectTarget(request, context) {
      const addresses = await resolvePortal(request.portal, resolve, context);
      const params = {
        ...portalParams(request.portal),
        TargetPortalAddresses: addresses ?? [],
        PortalResolved: addresses !== null,
        NodeAddress: request.iqn,
        AuthenticationType: request.authenticationType,
        ChapUsername: request.chapUsername,
        ChapSecret: request.chapSecret,
        IsPersistent: request.isPersistent,
        IsMultipathEnabled: request.isMultipathEnabled,
      };
      const result = await run(connectScript, params, context, { secrets: secretParameters });
      return parseOutcome(result, connectScript.name, [
        "connected",
        "alreadyConnected",
        "portalNotFound",
        "targetNotFound",
        "portalUnresolved",
      ]);
    },
    async disconnectTarget(portal, iqn, context) {
      const addresses = await resolvePortal(portal, resolve, context);
      const found = parseDisconnect(
        await run(
          disconnectScript,
          { ...portalParams(portal), TargetPortalAddresses: addresses ?? [], NodeAddress: iqn },
          context,
        ),
      );
      if (found.loggedOut !== null) return found.loggedOut;
      // Another portal of the target is a host name: only this resolver can say which sessions
      // it claims, so Node attributes them and a second script logs out its choice.
      const sessions = await attributeSessions(
        portal,
        addresses,
        found.sessions,
        found.otherPortals,
        resolve,
        context,
      );
      const logouts = chooseLogouts(sessions);
      if (logouts.length === 0) return 0;
      (context ?? noCallContext).throwIfDone();
      const list = logouts.map((s) => ({
        sessionIdentifier: s.sessionIdentifier,
        targetNodeAddress: s.targetNodeAddress,
        unregister: s.unregister,
      }));
      await run(logoutScript, { NodeAddress: iqn, Sessions: list }, context);
      return logouts.length;
    },
    async getTargetDisks(iqn, context) {
      return parseTargetDisks(await run(targetDisksScript, { NodeAddress: iqn }, context));
    },
    async listSessionDisks(context) {
      const listing = parseSessionListing(await run(listSessionsScript, undefined, context));
      const targetsOf = async () =>
        parsePortalTargets(await run(listPortalTargetsScript, undefined, context));
      return attributeListing(listing, resolve, targetsOf, context);
    },
    async setMutualChapSecret(secret, context) {
      await run(setChapSecretScript, { ChapSecret: secret }, context, {
        secrets: secretParameters,
      });
    },
  };
}
