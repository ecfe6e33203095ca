import {
  bindHost,
  createKeyedLock,
  groupOptions,
  invalidArgument,
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
import type { HostLogout, HostSession } from "./host-types.js";
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

  /** Registers a target portal (Windows runs discovery on it). Succeeds when it is registered already. */
  async addTargetPortal(request: AddTargetPortalRequest): Promise<AddTargetPortalResponse> {
    const portal = portalField(requestObject(request, "addTargetPortal"), "addTargetPortal");
    await this.#onPortal("addTargetPortal", portal, () => this.#host.addTargetPortal(portal));
    return {};
  }

  /**
   * Re-runs SendTargets discovery on a registered portal and lists the IQNs it offers.
   * `NOT_FOUND` (reason `PORTAL_NOT_FOUND`) when the portal is not registered.
   */
  async discoverTargetPortal(
    request: DiscoverTargetPortalRequest,
  ): Promise<DiscoverTargetPortalResponse> {
    const portal = portalField(
      requestObject(request, "discoverTargetPortal"),
      "discoverTargetPortal",
    );
    const found = await this.#onPortal("discoverTargetPortal", portal, () =>
      this.#host.discoverTargets(portal),
    );
    if (!found.portalFound) throw portalNotFound("discoverTargetPortal", portal);
    return { iqns: [...found.iqns] };
  }

  /** Removes a target portal; logged-in sessions stay. Succeeds when it is not registered. */
  async removeTargetPortal(
    request: RemoveTargetPortalRequest,
  ): Promise<RemoveTargetPortalResponse> {
    const portal = portalField(requestObject(request, "removeTargetPortal"), "removeTargetPortal");
    await this.#onPortal("removeTargetPortal", portal, () => this.#host.removeTargetPortal(portal));
    return {};
  }

  /** Every registered target portal. */
  async listTargetPortals(
    request: ListTargetPortalsRequest = {},
  ): Promise<ListTargetPortalsResponse> {
    requestObject(request, "listTargetPortals");
    const portals = await this.#call("listTargetPortals", () => this.#host.listTargetPortals());
    return {
      targetPortals: portals.map((p) => ({ targetAddress: p.address, targetPort: p.port })),
    };
  }

  /**
   * Logs in to a target through a registered portal. Idempotent: succeeds without a new login
   * when a connected session to the target goes through this portal (to one of its resolved
   * addresses) or, without multipath, through any portal, and when Windows answers "already
   * logged in". With multipath, `FAILED_PRECONDITION` (reason `PORTAL_UNREACHABLE`) when the
   * target has sessions but the portal's host name does not resolve: nothing is logged in.
   */
  async connectTarget(request: ConnectTargetRequest): Promise<ConnectTargetResponse> {
    const method = "connectTarget";
    const fields = requestObject(request, method);
    const portal = portalField(fields, method);
    const iqn = iqnField(fields, method);
    const auth = loginAuth(fields, method);
    const isPersistent = optionalBoolean(fields, "isPersistent", method);
    const isMultipathEnabled = optionalBoolean(fields, "isMultipathEnabled", method);
    const secrets = [auth.chapSecret];
    try {
      const outcome = await this.#onTarget(method, portal, iqn, async () => {
        try {
          return await this.#host.connectTarget({
            portal,
            iqn,
            ...auth,
            isPersistent,
            isMultipathEnabled,
          });
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
  }

  /**
   * Logs out of a target's sessions through this portal (to one of its resolved addresses);
   * sessions through other portals stay. Persistent logins are unregistered first, so Windows
   * does not log in again at boot. Succeeds when no session goes through this portal.
   * `FAILED_PRECONDITION` (reason `PORTAL_UNREACHABLE`) when the target has sessions but the
   * portal's host name does not resolve: nothing is logged out.
   */
  async disconnectTarget(request: DisconnectTargetRequest): Promise<DisconnectTargetResponse> {
    const method = "disconnectTarget";
    const fields = requestObject(request, method);
    const portal = portalField(fields, method);
    const iqn = iqnField(fields, method);
    const outcome = await this.#onTarget(method, portal, iqn, async () => {
      // A session that vanished meanwhile (ISDSC_INVALID_SESSION_ID) stops the script; look again once.
      for (let attempt = 1; ; attempt++) {
        const sessions = await this.#host.listTargetSessions(portal, iqn);
        if (sessions.some((s) => s.viaPortal === null)) return "portalUnresolved";
        const logouts = chooseLogouts(sessions);
        if (logouts.length === 0) return "done";
        try {
          await this.#host.logoutSessions(iqn, logouts);
          return "done";
        } catch (error) {
          if (attempt === 2 || iscsiStatusOf(error) !== invalidSessionId) throw error;
        }
      }
    });
    if (outcome === "portalUnresolved") throw portalUnresolved(method, portal);
    return {};
  }

  /**
   * Windows disk numbers of the target's LUNs, ascending. Empty when the target is not
   * connected. A LUN may take a moment to appear after a login; rescan and retry if needed.
   */
  async getTargetDisks(request: GetTargetDisksRequest): Promise<GetTargetDisksResponse> {
    const method = "getTargetDisks";
    const fields = requestObject(request, method);
    const portal = portalField(fields, method);
    const iqn = iqnField(fields, method);
    const numbers = await this.#onTarget(method, portal, iqn, () =>
      this.#host.getTargetDiskNumbers(iqn),
    );
    return { diskIds: [...new Set(numbers)].sort((a, b) => a - b) };
  }

  /** Sets the node-wide secret that targets must present in `MUTUAL_CHAP` logins. */
  async setMutualChapSecret(
    request: SetMutualChapSecretRequest,
  ): Promise<SetMutualChapSecretResponse> {
    const method = "setMutualChapSecret";
    const secret = mutualChapSecret(requestObject(request, method), method);
    try {
      await iscsiLocks.run("chap:mutual", () =>
        this.#call(method, () => this.#host.setMutualChapSecret(secret)),
      );
    } catch (error) {
      throw withoutSecrets(error, [secret]);
    }
    return {};
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

  #onPortal<T>(operation: string, portal: Portal, work: () => Promise<T>): Promise<T> {
    return iscsiLocks.run(portalKey(portal), () => this.#call(operation, work));
  }

  #onTarget<T>(operation: string, portal: Portal, iqn: string, work: () => Promise<T>): Promise<T> {
    const key = `target:${portalKey(portal)}:${iqnKey(iqn)}`;
    return iscsiLocks.run(key, () => this.#call(operation, work));
  }
}

/**
 * The sessions a disconnect logs out: only those through the portal, never another portal's
 * (portals are matched by resolved address, so a host-name portal finds its own). Each names
 * its target as Windows stores it; persistent logins are unregistered too.
 */
function chooseLogouts(sessions: readonly HostSession[]): HostLogout[] {
  return sessions
    .filter((s) => s.viaPortal === true)
    .map((s) => ({
      sessionIdentifier: s.sessionIdentifier,
      targetNodeAddress: s.targetNodeAddress,
      unregister: s.isPersistent,
    }));
}
