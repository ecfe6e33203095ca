import { attributeSessions } from "./attribute.js";
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
  HostLogout,
  HostRemovePortalOutcome,
  HostSession,
  HostTargetDisk,
} from "./host-types.js";
import {
  parseDiscovery,
  parseTargetDisks,
  parseOutcome,
  parsePortals,
  parseListedSessions,
} from "./parse.js";
import type { Portal } from "./portal.js";
import { resolvePortal, systemHostNameResolver, type HostNameResolver } from "./resolve.js";
import {
  addPortalScript,
  connectScript,
  discoverScript,
  listPortalsScript,
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
  listSessions: listSessionsScript,
  logout: logoutScript,
  targetDisks: targetDisksScript,
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
  /** Connected sessions to the target `iqn` (through any portal; `viaPortal` says which). */
  listTargetSessions(
    portal: Portal,
    iqn: string,
    context?: CallContext,
  ): Promise<readonly HostSession[]>;
  /**
   * Unregisters every flagged persistent login, then logs out every listed session of `iqn`,
   * naming the target as Windows does (its target object, else the session's name).
   */
  logoutSessions(
    iqn: string,
    sessions: readonly HostLogout[],
    context?: CallContext,
  ): Promise<void>;
  /** The disks of every connected session to `iqn`, each with its LUN; empty when none. */
  getTargetDisks(iqn: string, context?: CallContext): Promise<readonly HostTargetDisk[]>;
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
 * connect or a session listing, because connections report IP addresses.
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
    async listTargetSessions(portal, iqn, context) {
      const listed = parseListedSessions(
        await run(
          listSessionsScript,
          {
            TargetPortalAddress: portal.address,
            TargetPortalPortNumber: portal.port,
            NodeAddress: iqn,
          },
          context,
        ),
      );
      return attributeSessions(portal, listed.sessions, listed.otherPortals, resolve, context);
    },
    async logoutSessions(iqn, sessions, context) {
      const list = sessions.map((s) => ({
        sessionIdentifier: s.sessionIdentifier,
        targetNodeAddress: s.targetNodeAddress,
        unregister: s.unregister,
      }));
      await run(logoutScript, { NodeAddress: iqn, Sessions: list }, context);
    },
    async getTargetDisks(iqn, context) {
      return parseTargetDisks(await run(targetDisksScript, { NodeAddress: iqn }, context));
    },
    async setMutualChapSecret(secret, context) {
      await run(setChapSecretScript, { ChapSecret: secret }, context, {
        secrets: secretParameters,
      });
    },
  };
}
