import { CsiProxyError, isCsiProxyError, type CallOptions } from "@csi-proxy/exec";
import type { NodeGroups } from "../handlers/context.js";
import type { Grants } from "./grants.js";
import type { Caller } from "../identity.js";
import type { Policy } from "./load.js";
import { pathMatches, samePortal, smbMatches, type PortalKey } from "./match.js";
import type { PathResolver } from "./resolve.js";
import { describeResource, type Resource } from "./resources.js";

/** A refusal: which grant kind was missing, for what. */
export interface Denial {
  /** The policy field that would have had to grant it (`methods`, `paths`, `disks`, ...). */
  readonly grant: string;
  /** What it was asked for. */
  readonly what: string;
}

/** A decision on one request. */
export type Decision =
  { readonly allowed: true } | { readonly allowed: false; readonly denial: Denial };

const allowed: Decision = { allowed: true };
const deny = (grant: string, what: string): Decision => ({
  allowed: false,
  denial: { grant, what },
});

// Targets this server has seen requests for, so the disks of a target granted by pattern can be
// found on the host; capped, oldest first out.
const maxHints = 256;

function portalGranted(grants: Grants, portal: PortalKey): boolean {
  return grants.iscsiPortals === "any" || grants.iscsiPortals.some((p) => samePortal(p, portal));
}

function iqnGranted(grants: Grants, iqn: string): boolean {
  return grants.iscsiTargets.some((pattern) => pattern.test(iqn));
}

/** The policy's decisions, with the read-only host checks that disks and volumes need. */
export class Authorizer {
  readonly #groups: NodeGroups;
  readonly #resolve: PathResolver | undefined;
  readonly #hints = new Map<string, { portal: PortalKey; iqn: string }>();

  /** `resolve` follows a path's links on the host; a path must be granted where they lead too. */
  constructor(groups: NodeGroups, resolve?: PathResolver) {
    this.#groups = groups;
    this.#resolve = resolve;
  }

  /**
   * Decides whether the grants cover the method and every resource. Names and paths are checked
   * first; disks and volumes last, by reading the host (never changing it).
   */
  async decide(
    grants: Grants,
    method: string,
    resources: readonly Resource[],
    options: CallOptions,
  ): Promise<Decision> {
    if (!grants.methods.some((pattern) => pattern.test(method))) return deny("methods", method);
    for (const resource of resources) {
      const decision = this.#offline(grants, resource);
      if (!decision.allowed) return decision;
    }
    for (const resource of resources) {
      if (
        resource.kind === "path" &&
        !(await this.#resolvedGranted(grants, resource.path, resource.field === "source_path"))
      ) {
        // Where the links lead is the host's business, not the caller's: it is not said.
        return deny("paths", `${resource.path} (once its links are followed)`);
      }
    }
    for (const resource of resources) {
      if (
        resource.kind === "disk" &&
        !(await this.#diskGranted(grants, resource.diskNumber, options))
      ) {
        return deny("disks", describeResource(resource));
      }
      if (
        resource.kind === "volume" &&
        !(await this.#volumeGranted(grants, resource.volumeId, options))
      ) {
        return deny("volumes", describeResource(resource));
      }
      if (resource.kind === "iscsiTarget") this.#hint(resource.portal, resource.iqn);
    }
    return allowed;
  }

  #offline(grants: Grants, resource: Resource): Decision {
    const what = describeResource(resource);
    switch (resource.kind) {
      case "path":
        return grants.paths.some((pattern) => pathMatches(resource.path, pattern))
          ? allowed
          : deny("paths", what);
      case "smbRemotePath":
        return grants.smbRemotePaths === "any" ||
          grants.smbRemotePaths.some((prefix) => smbMatches(resource.remotePath, prefix))
          ? allowed
          : deny("smbRemotePaths", what);
      case "iscsiPortal":
        return portalGranted(grants, resource.portal) ? allowed : deny("iscsiPortals", what);
      case "iscsiTarget":
        return iqnGranted(grants, resource.iqn) ? allowed : deny("iscsiTargets", what);
      case "service":
        return grants.services === "any" || grants.services.includes(resource.name.toLowerCase())
          ? allowed
          : deny("services", what);
      default:
        return allowed;
    }
  }

  // A junction or symlink inside a granted folder (a pod can make one in its own volume) must not
  // carry a request into a folder the caller was not given.
  // A new link's source is followed to its end: the link will lead wherever it leads.
  async #resolvedGranted(grants: Grants, path: string, followFinal: boolean): Promise<boolean> {
    if (this.#resolve === undefined) return true;
    let resolved: string | undefined;
    try {
      resolved = await this.#resolve(path, followFinal);
    } catch {
      return false; // a link loop, a folder that cannot be read: not shown to be granted
    }
    return resolved !== undefined && grants.paths.some((pattern) => pathMatches(resolved, pattern));
  }

  #hint(portal: PortalKey, iqn: string): void {
    const key = `${portal.address}:${portal.port}|${iqn.toLowerCase()}`;
    this.#hints.delete(key);
    this.#hints.set(key, { portal, iqn });
    if (this.#hints.size > maxHints) this.#hints.delete(this.#hints.keys().next().value ?? "");
  }

  async #volumeGranted(grants: Grants, volumeId: string, options: CallOptions): Promise<boolean> {
    if (grants.volumes === "any" || grants.volumes.includes(volumeId.toLowerCase())) return true;
    if (!grants.disksAny && !grants.disksOfIscsiTargets && grants.page83.length === 0) return false;
    const { diskNumber } = await this.#groups.volume.getDiskNumberFromVolumeId(
      { volumeId },
      options,
    );
    return this.#diskGranted(grants, diskNumber, options);
  }

  async #diskGranted(grants: Grants, diskNumber: number, options: CallOptions): Promise<boolean> {
    if (grants.disksAny) return true;
    if (grants.page83.length > 0) {
      const { diskIds } = await this.#groups.disk.listDiskIds({}, options);
      const page83 = diskIds.get(diskNumber)?.page83;
      if (page83 !== undefined && page83 !== "" && grants.page83.some((p) => p.test(page83)))
        return true;
    }
    if (!grants.disksOfIscsiTargets) return false;
    for (const { portal, iqn } of await this.#targets(grants, options)) {
      let disks: readonly number[];
      try {
        ({ diskIds: disks } = await this.#groups.iscsi.getTargetDisks(
          { targetPortal: { targetAddress: portal.address, targetPort: portal.port }, iqn },
          options,
        ));
      } catch (error) {
        if (isCsiProxyError(error) && error.code === "NOT_FOUND") continue;
        throw error;
      }
      if (disks.includes(diskNumber)) return true;
    }
    return false;
  }

  // The granted targets whose disks can be looked up: IQNs granted by name on every registered
  // granted portal, and the targets requests have named (a pattern grant cannot be listed).
  async #targets(
    grants: Grants,
    options: CallOptions,
  ): Promise<{ portal: PortalKey; iqn: string }[]> {
    const out = [...this.#hints.values()].filter(
      (t) => portalGranted(grants, t.portal) && iqnGranted(grants, t.iqn),
    );
    if (grants.exactIqns.length === 0) return out;
    const { targetPortals } = await this.#groups.iscsi.listTargetPortals({}, options);
    for (const registered of targetPortals) {
      const portal = {
        address: registered.targetAddress.toLowerCase(),
        port: registered.targetPort,
      };
      if (!portalGranted(grants, portal)) continue;
      for (const iqn of grants.exactIqns) out.push({ portal, iqn });
    }
    return out;
  }
}

/** The error a denial is answered with: PERMISSION_DENIED naming the missing grant. */
export function denialError(
  policy: Policy,
  caller: Caller,
  method: string,
  grants: Grants | undefined,
  denial?: Denial,
): CsiProxyError {
  const message =
    grants === undefined
      ? `Policy ${policy.source} has no rule for caller ${caller.name}; ${method} is denied.`
      : `Policy ${policy.source} denies ${method} to caller ${caller.name}: no "${denial?.grant ?? "methods"}" grant covers ${denial?.what ?? method} (rules: ${grants.rules.join(", ")}).`;
  return new CsiProxyError(message, { code: "PERMISSION_DENIED" });
}
