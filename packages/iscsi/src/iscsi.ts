import {
  bindHost,
  createKeyedLock,
  groupOptions,
  invalidArgument,
  withCallContext,
  type CallContext,
  type CallOptions,
  type HostBinding,
  type HostOptions,
} from "@csi-proxy/exec";
import { loginAuth, mutualChapSecret } from "./auth.js";
import {
  hostFailure,
  iscsiStatusOf,
  portalNotFound,
  portalUnresolved,
  targetNotFound,
  withoutSecrets,
} from "./errors.js";
import { createPowerShellIscsiHost, type IscsiHost } from "./host.js";
import { invalidSessionId, targetAlreadyLoggedIn } from "./hresults.js";
import { iqnField, iqnKey } from "./iqn.js";
import { portalField, portalKey, type Portal } from "./portal.js";
import type { HostNameResolver } from "./resolve.js";
import type {
  AddTargetPortalRequest,
  AddTargetPortalResponse,
  ConnectTargetRequest,
  ConnectTargetResponse,
  DisconnectTargetRequest,
  DisconnectTargetResponse,
  DiscoverTargetPortalRequest,
  DiscoverTargetPortalResponse,
  GetTargetDisksRequest,
  GetTargetDisksResponse,
  ListSessionDisksRequest,
  ListSessionDisksResponse,
  ListTargetPortalsRequest,
  ListTargetPortalsResponse,
  RemoveTargetPortalRequest,
  RemoveTargetPortalResponse,
  SetMutualChapSecretRequest,
  SetMutualChapSecretResponse,
} from "./types.js";
import { optionalBoolean, requestObject } from "./validate.js";

// One lock table per process, so two Iscsi instances cannot interleave work on one portal or target.
const iscsiLocks = createKeyedLock();

/** Options of {@link Iscsi}: give a `host`, or a `shell` to run the default PowerShell host on. */
export type IscsiOptions = HostOptions<IscsiHost> & {
  /**
   * For the PowerShell host: resolves a portal's host name to all its addresses, to tell which
   * sessions go through it (connections report IPs). Default: the operating system's resolver.
   */
  resolveHostName?: HostNameResolver | undefined;
};

/**
 * The iSCSI API group: target portals, discovery, CHAP logins and the disks behind a target, as
 * upstream CSI Proxy's iSCSI group. Every method validates its request before anything runs,
 * takes one request object and resolves with one response object; failures are `CsiProxyError`s
 * (`IscsiError` for initiator failures) whose `code` callers branch on. CHAP secrets are never
 * written into script text, error messages or diagnostics.
 *
 * @example
 * ```ts
 * import { Iscsi } from "@csi-proxy/iscsi";
 *
 * const iscsi = new Iscsi();
 * const targetPortal = { targetAddress: "10.0.0.5", targetPort: 3260 };
 * await iscsi.addTargetPortal({ targetPortal });
 * const { iqns } = await iscsi.discoverTargetPortal({ targetPortal });
 * await iscsi.connectTarget({
 *   targetPortal,
 *   iqn: "iqn.2005-10.org.example:vol1",
 *   authType: "ONE_WAY_CHAP",
 *   chapUsername: "node1",
 *   chapSecret: process.env.CHAP_SECRET ?? "",
 * });
 * const { diskIds } = await iscsi.getTargetDisks({ targetPortal, iqn: "iqn.2005-10.org.example:vol1" });
 * ```
 */
export class Iscsi {
  readonly #binding: HostBinding<IscsiHost>;

  constructor(options: IscsiOptions = {}) {
    const own = groupOptions(options, "Iscsi");
    const resolveHostName = own("resolveHostName") as HostNameResolver | undefined;
    if (resolveHostName !== undefined && typeof resolveHostName !== "function") {
      throw invalidArgument("Iscsi: resolveHostName must be a function.");
    }
    const hostOptions = { host: own("host"), shell: own("shell") } as HostOptions<IscsiHost>;
    if (resolveHostName !== undefined && hostOptions.host !== undefined) {
      throw invalidArgument("Iscsi takes resolveHostName for its PowerShell host, not with host.");
    }
    this.#binding = bindHost("Iscsi", hostOptions, (shell) =>
      createPowerShellIscsiHost(shell, { resolveHostName }),
    );
  }

  get #host(): IscsiHost {
    return this.#binding.host;
  }

  /**
   * Registers a target portal (Windows runs discovery on it). Succeeds when it is registered already.
   *
   * Cancelled: the portal may have been registered; a retry is safe (a registered portal is success).
   */
  async addTargetPortal(
    request: AddTargetPortalRequest,
    options?: CallOptions,
  ): Promise<AddTargetPortalResponse> {
    const method = "addTargetPortal";
    const portal = portalField(requestObject(request, method), method);
    return withCallContext(method, options, async (context) => {
      await this.#onPortal(method, portal, context, () =>
        this.#host.addTargetPortal(portal, context),
      );
      return {};
    });
  }

  /**
   * Re-runs SendTargets discovery on a registered portal and lists the IQNs it offers.
   * `NOT_FOUND` (reason `PORTAL_NOT_FOUND`) when the portal is not registered.
   *
   * Cancelled: the portal's list of discovered targets may have been refreshed, nothing else; a
   * retry is safe.
   */
  async discoverTargetPortal(
    request: DiscoverTargetPortalRequest,
    options?: CallOptions,
  ): Promise<DiscoverTargetPortalResponse> {
    const method = "discoverTargetPortal";
    const portal = portalField(requestObject(request, method), method);
    return withCallContext(method, options, async (context) => {
      const found = await this.#onPortal(method, portal, context, () =>
        this.#host.discoverTargets(portal, context),
      );
      if (!found.portalFound) throw portalNotFound(method, portal);
      return { iqns: [...found.iqns] };
    });
  }

  /**
   * Removes a target portal; logged-in sessions stay. Succeeds when it is not registered.
   *
   * Cancelled: the portal may have been removed; a retry is safe (a missing portal is success).
   */
  async removeTargetPortal(
    request: RemoveTargetPortalRequest,
    options?: CallOptions,
  ): Promise<RemoveTargetPortalResponse> {
    const method = "removeTargetPortal";
    const portal = portalField(requestObject(request, method), method);
    return withCallContext(method, options, async (context) => {
      await this.#onPortal(method, portal, context, () =>
        this.#host.removeTargetPortal(portal, context),
      );
      return {};
    });
  }

  /**
   * Every registered target portal.
   *
   * Cancelled: nothing has changed (it only reads); a retry is safe.
   */
  async listTargetPortals(
    request: ListTargetPortalsRequest = {},
    options?: CallOptions,
  ): Promise<ListTargetPortalsResponse> {
    const method = "listTargetPortals";
    requestObject(request, method);
    return withCallContext(method, options, async (context) => {
      const portals = await this.#call(method, () => this.#host.listTargetPortals(context));
      return {
        targetPortals: portals.map((p) => ({ targetAddress: p.address, targetPort: p.port })),
      };
    });
  }

  /**
   * Logs in to a target through a registered portal. Idempotent: succeeds without a new login
   * when a connected session to the target goes through this portal (to one of its resolved
   * addresses) or, without multipath, through any portal, and when Windows answers "already
   * logged in". With multipath, `FAILED_PRECONDITION` (reason `PORTAL_UNREACHABLE`) when the
   * target has sessions but the portal's host name does not resolve: nothing is logged in.
   *
   * Cancelled: the login may have happened (Windows' initiator service logs in, not the
   * PowerShell process that is ended), with its persistent registration; a retry is safe: it
   * finds that session through the portal and reuses it (registering it as persistent if asked),
   * so no second session is made, even with multipath, once that login has finished.
   */
  async connectTarget(
    request: ConnectTargetRequest,
    options?: CallOptions,
  ): Promise<ConnectTargetResponse> {
    const method = "connectTarget";
    const fields = requestObject(request, method);
    const portal = portalField(fields, method);
    const iqn = iqnField(fields, method);
    const auth = loginAuth(fields, method);
    const isPersistent = optionalBoolean(fields, "isPersistent", method);
    const isMultipathEnabled = optionalBoolean(fields, "isMultipathEnabled", method);
    const secrets = [auth.chapSecret];
    return withCallContext(method, options, async (context) => {
      try {
        const outcome = await this.#onTarget(method, portal, iqn, context, async () => {
          try {
            return await this.#host.connectTarget(
              { portal, iqn, ...auth, isPersistent, isMultipathEnabled },
              context,
            );
          } catch (error) {
            // Another process logged in between our check and our login: the goal is reached.
            if (iscsiStatusOf(error) === targetAlreadyLoggedIn) return "alreadyConnected";
            throw error;
          }
        });
        if (outcome === "portalNotFound") throw portalNotFound(method, portal);
        if (outcome === "targetNotFound") throw targetNotFound(method, portal, iqn);
        if (outcome === "portalUnresolved") throw portalUnresolved(method, portal);
      } catch (error) {
        throw withoutSecrets(error, secrets);
      }
      return {};
    });
  }

  /**
   * Logs out of a target's sessions through this portal; sessions another registered portal of
   * the target can claim (a connection to one of its addresses) stay. A session whose connection
   * goes to none of the portals' addresses (a target that redirected the login to a data
   * address) is this portal's, and so is every session while its host name does not resolve,
   * unless another portal claims it: an unstage never waits for DNS. Persistent logins are
   * unregistered first, so Windows does not log in again at boot. Succeeds when no session is
   * the portal's; `sessionsLoggedOut` says how many were.
   *
   * Cancelled: persistent logins may have been unregistered and some sessions logged out (never a
   * logout before its unregistration); a retry is safe: it lists the sessions again and finishes.
   */
  async disconnectTarget(
    request: DisconnectTargetRequest,
    options?: CallOptions,
  ): Promise<DisconnectTargetResponse> {
    const method = "disconnectTarget";
    const fields = requestObject(request, method);
    const portal = portalField(fields, method);
    const iqn = iqnField(fields, method);
    return withCallContext(method, options, async (context) => {
      const outcome = await this.#onTarget(method, portal, iqn, context, async () => {
        // A session that vanished between the listing and its logout (ISDSC_INVALID_SESSION_ID)
        // stops the script; look again once.
        for (let attempt = 1; ; attempt++) {
          try {
            return await this.#host.disconnectTarget(portal, iqn, context);
          } catch (error) {
            if (attempt === 2 || iscsiStatusOf(error) !== invalidSessionId) throw error;
            context.throwIfDone();
          }
        }
      });
      return { sessionsLoggedOut: outcome };
    });
  }

  /**
   * Windows disk numbers of the target's LUNs, ascending. Empty when the target is not
   * connected. A LUN may take a moment to appear after a login; rescan and retry if needed.
   *
   * Cancelled: nothing has changed (it only reads); a retry is safe.
   */
  async getTargetDisks(
    request: GetTargetDisksRequest,
    options?: CallOptions,
  ): Promise<GetTargetDisksResponse> {
    const method = "getTargetDisks";
    const fields = requestObject(request, method);
    const portal = portalField(fields, method);
    const iqn = iqnField(fields, method);
    return withCallContext(method, options, async (context) => {
      const found = await this.#onTarget(method, portal, iqn, context, () =>
        this.#host.getTargetDisks(iqn, context),
      );
      // One MPIO disk is seen through each of its sessions: once each.
      const byNumber = new Map(found.map((d) => [d.diskNumber, d.lun]));
      const disks = [...byNumber]
        .sort(([a], [b]) => a - b)
        .map(([diskId, lun]) => ({ diskId, lun }));
      return { diskIds: disks.map((d) => d.diskId), disks };
    });
  }

  /**
   * Every iSCSI session of the node with its disks and the registered portals it goes through, in
   * one listing: two queries however many sessions there are (a third, per portal, only for a
   * session whose login a target redirected). What `getTargetDisks` answers for one target, for
   * all of them at once: a server deciding whose disk is whose asks this once, not once per target.
   *
   * Cancelled: nothing has changed (it only reads); a retry is safe.
   */
  async listSessionDisks(
    request: ListSessionDisksRequest = {},
    options?: CallOptions,
  ): Promise<ListSessionDisksResponse> {
    const method = "listSessionDisks";
    requestObject(request, method);
    return withCallContext(method, options, async (context) => {
      const found = await this.#call(method, () => this.#host.listSessionDisks(context));
      return {
        sessions: found.map((session) => {
          const byNumber = new Map(session.disks.map((d) => [d.diskNumber, d.lun]));
          return {
            sessionId: session.sessionIdentifier,
            iqn: session.targetNodeAddress,
            targetPortals: session.portals.map((p) => ({
              targetAddress: p.address,
              targetPort: p.port,
            })),
            disks: [...byNumber]
              .sort(([a], [b]) => a - b)
              .map(([diskId, lun]) => ({ diskId, lun })),
          };
        }),
      };
    });
  }

  /**
   * Sets the node-wide secret that targets must present in `MUTUAL_CHAP` logins.
   *
   * Cancelled: the secret may have been set; a retry is safe (setting it again changes nothing).
   */
  async setMutualChapSecret(
    request: SetMutualChapSecretRequest,
    options?: CallOptions,
  ): Promise<SetMutualChapSecretResponse> {
    const method = "setMutualChapSecret";
    const secret = mutualChapSecret(requestObject(request, method), method);
    return withCallContext(method, options, async (context) => {
      try {
        await iscsiLocks.run(
          "chap:mutual",
          () => this.#call(method, () => this.#host.setMutualChapSecret(secret, context)),
          context.signal,
        );
      } catch (error) {
        throw withoutSecrets(error, [secret]);
      }
      return {};
    });
  }

  /** Closes the PowerShell this instance created; a shell or host passed in is left to its owner. */
  async close(): Promise<void> {
    await this.#binding.close();
  }

  async #call<T>(operation: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw hostFailure(operation, error);
    }
  }

  #onPortal<T>(
    operation: string,
    portal: Portal,
    context: CallContext,
    work: () => Promise<T>,
  ): Promise<T> {
    return iscsiLocks.run(portalKey(portal), () => this.#call(operation, work), context.signal);
  }

  #onTarget<T>(
    operation: string,
    portal: Portal,
    iqn: string,
    context: CallContext,
    work: () => Promise<T>,
  ): Promise<T> {
    const key = `target:${portalKey(portal)}:${iqnKey(iqn)}`;
    return iscsiLocks.run(key, () => this.#call(operation, work), context.signal);
  }
}
