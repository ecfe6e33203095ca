import { PowerShellError } from "@csi-proxy/exec";
import type { IscsiHost } from "../src/host.js";
import type { HostConnectRequest, HostSessionDisks, HostTargetDisk } from "../src/host-types.js";
import type { Portal } from "../src/portal.js";

/** A PowerShellError shaped like exec's for an error id such as `HRESULT 0xefff0009,Connect-IscsiTarget`. */
export function powerShellError(errorId: string, message = "failed"): PowerShellError {
  return new PowerShellError(message, {
    code: "COMMAND_FAILED",
    scriptName: "fake",
    mode: "session",
    durationMs: 1,
    record: {
      message,
      fullyQualifiedErrorId: errorId,
      category: "NotSpecified",
      reason: "CimException",
      targetName: "",
      targetType: "",
      exceptionType: "Microsoft.Management.Infrastructure.CimException",
      exceptionChain: [],
      hResult: 0,
      nativeErrorCode: null,
      statusCode: null,
      messageId: null,
      errorDetails: null,
      scriptStackTrace: "",
    },
  });
}

/** A target on the storage array: what it requires at login and which disks its LUNs become. */
export interface FakeTarget {
  iqn: string;
  /** Disk numbers Windows gives its LUNs once logged in. */
  disks: number[];
  /** Required initiator CHAP credentials (ONEWAYCHAP or MUTUALCHAP). */
  chap?: { username: string; secret: string };
  /** The initiator's mutual secret the target expects (MUTUALCHAP only). */
  mutualSecret?: string;
}

/** A session in the fake initiator. IQNs are stored lower-cased, as Get-IscsiSession reports them. */
export interface FakeSession {
  sessionIdentifier: string;
  iqn: string;
  portal: Portal;
  isPersistent: boolean;
}

export interface FakeCall {
  method: keyof IscsiHost;
  args: unknown[];
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const samePortal = (a: Portal, b: Portal) => same(a.address, b.address) && a.port === b.port;

/**
 * An in-memory IscsiHost that behaves like the scripts on Windows: targets behind each array
 * address, registered portals, sessions, persistent logins and the mutual CHAP secret. Every
 * call is recorded; `fail` makes the next call of a method reject.
 */
export class FakeIscsiHost implements IscsiHost {
  readonly calls: FakeCall[] = [];
  /** What answers at each address:port (the storage side). */
  readonly arrays = new Map<string, FakeTarget[]>();
  readonly portals: Portal[] = [];
  readonly sessions: FakeSession[] = [];
  /** Persistent logins Windows would restore at boot, by session id. */
  readonly favorites = new Set<string>();
  /** Events in the order the initiator saw them (unregister, logout, login). */
  readonly events: string[] = [];
  mutualSecret = "";
  readonly failures = new Map<keyof IscsiHost, unknown[]>();
  hook: ((method: keyof IscsiHost) => Promise<void>) | undefined;
  /** The portals' host names stop resolving: no session can be told to go through a portal. */
  unresolved = false;
  #nextSession = 1;

  serve(portal: Portal, targets: FakeTarget[]): this {
    this.arrays.set(`${portal.address.toLowerCase()}:${portal.port}`, targets);
    return this;
  }

  fail(method: keyof IscsiHost, error: unknown): void {
    this.failures.set(method, [...(this.failures.get(method) ?? []), error]);
  }

  methods(): (keyof IscsiHost)[] {
    return this.calls.map((c) => c.method);
  }

  async listTargetPortals(): Promise<readonly Portal[]> {
    await this.#enter("listTargetPortals", []);
    return this.portals.map((p) => ({ ...p }));
  }

  async addTargetPortal(portal: Portal): Promise<"added" | "exists"> {
    await this.#enter("addTargetPortal", [portal]);
    if (this.portals.some((p) => samePortal(p, portal))) return "exists";
    if (this.#array(portal) === undefined)
      throw powerShellError("HRESULT 0xefff0003,New-IscsiTargetPortal");
    this.portals.push({ ...portal });
    return "added";
  }

  async removeTargetPortal(portal: Portal): Promise<"removed" | "absent"> {
    await this.#enter("removeTargetPortal", [portal]);
    const index = this.portals.findIndex((p) => samePortal(p, portal));
    if (index === -1) return "absent";
    this.portals.splice(index, 1);
    return "removed";
  }

  async discoverTargets(portal: Portal): Promise<{ portalFound: boolean; iqns: string[] }> {
    await this.#enter("discoverTargets", [portal]);
    if (!this.portals.some((p) => samePortal(p, portal))) return { portalFound: false, iqns: [] };
    const targets = this.#array(portal);
    if (targets === undefined) throw powerShellError("HRESULT 0xefff0003,Update-IscsiTargetPortal");
    return { portalFound: true, iqns: targets.map((t) => t.iqn) };
  }

  async connectTarget(
    request: HostConnectRequest,
  ): Promise<
    "connected" | "alreadyConnected" | "portalNotFound" | "targetNotFound" | "portalUnresolved"
  > {
    await this.#enter("connectTarget", [request]);
    if (!this.portals.some((p) => samePortal(p, request.portal))) return "portalNotFound";
    const target = this.#array(request.portal)?.find((t) => same(t.iqn, request.iqn));
    if (target === undefined) return "targetNotFound";
    const sessions = this.sessions.filter((s) => same(s.iqn, request.iqn));
    const viaPortal = this.unresolved
      ? []
      : sessions.filter((s) => samePortal(s.portal, request.portal));
    const existing = viaPortal.length > 0 || request.isMultipathEnabled ? viaPortal : sessions;
    if (existing.length === 0 && sessions.length > 0 && this.unresolved) return "portalUnresolved";
    const first = existing[0];
    if (first !== undefined) {
      if (request.isPersistent && !first.isPersistent) {
        first.isPersistent = true;
        this.favorites.add(first.sessionIdentifier);
      }
      return "alreadyConnected";
    }
    this.#authenticate(target, request);
    const session: FakeSession = {
      sessionIdentifier: `session-${this.#nextSession++}`,
      iqn: target.iqn.toLowerCase(),
      portal: { ...request.portal },
      isPersistent: request.isPersistent,
    };
    this.sessions.push(session);
    if (session.isPersistent) this.favorites.add(session.sessionIdentifier);
    this.events.push(`login ${session.sessionIdentifier}`);
    return "connected";
  }

  /**
   * As the `iscsi.disconnect` script: the portal's sessions (all of them while the portal names
   * do not resolve, as a host that cannot tell treats them), persistent logins unregistered
   * before any logout.
   */
  async disconnectTarget(portal: Portal, iqn: string): Promise<number> {
    await this.#enter("disconnectTarget", [portal, iqn]);
    const logouts = this.sessions.filter(
      (s) => same(s.iqn, iqn) && (this.unresolved || samePortal(s.portal, portal)),
    );
    for (const session of logouts) {
      if (!session.isPersistent) continue;
      this.favorites.delete(session.sessionIdentifier);
      this.events.push(`unregister ${session.sessionIdentifier}`);
    }
    for (const session of logouts) {
      this.sessions.splice(this.sessions.indexOf(session), 1);
      this.events.push(`logout ${session.sessionIdentifier}`);
    }
    return logouts.length;
  }

  async getTargetDisks(iqn: string): Promise<readonly HostTargetDisk[]> {
    await this.#enter("getTargetDisks", [iqn]);
    const disks: HostTargetDisk[] = [];
    for (const session of this.sessions.filter((s) => same(s.iqn, iqn))) {
      const target = this.#array(session.portal)?.find((t) => same(t.iqn, iqn));
      disks.push(...(target?.disks ?? []).map((diskNumber, lun) => ({ diskNumber, lun })));
    }
    return disks;
  }

  /** Each session with the portal it logged in through (no redirects here). */
  async listSessionDisks(): Promise<readonly HostSessionDisks[]> {
    await this.#enter("listSessionDisks", []);
    return this.sessions.map((session) => {
      const target = this.#array(session.portal)?.find((t) => same(t.iqn, session.iqn));
      return {
        sessionIdentifier: session.sessionIdentifier,
        targetNodeAddress: session.iqn,
        portals: [{ ...session.portal }],
        disks: (target?.disks ?? []).map((diskNumber, lun) => ({ diskNumber, lun })),
      };
    });
  }

  async setMutualChapSecret(secret: string): Promise<void> {
    await this.#enter("setMutualChapSecret", [secret]);
    this.mutualSecret = secret;
  }

  #array(portal: Portal): FakeTarget[] | undefined {
    return this.arrays.get(`${portal.address.toLowerCase()}:${portal.port}`);
  }

  /** Windows answers a failed CHAP exchange with ISDSC_AUTHENTICATION_FAILURE (0xefff0009). */
  #authenticate(target: FakeTarget, request: HostConnectRequest): void {
    const denied = () =>
      powerShellError("HRESULT 0xefff0009,Connect-IscsiTarget", "Authentication Failure.");
    if (target.chap === undefined) return;
    if (request.authenticationType === "NONE") throw denied();
    if (request.chapUsername !== target.chap.username || request.chapSecret !== target.chap.secret)
      throw denied();
    if (request.authenticationType === "MUTUALCHAP" && this.mutualSecret !== target.mutualSecret)
      throw denied();
  }

  async #enter(method: keyof IscsiHost, args: unknown[]): Promise<void> {
    this.calls.push({ method, args });
    await this.hook?.(method);
    const queued = this.failures.get(method);
    if (queued !== undefined && queued.length > 0) throw queued.shift();
  }
}
