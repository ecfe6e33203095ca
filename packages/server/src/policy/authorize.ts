import { CsiProxyError, isCsiProxyError, type CallOptions } from "@csi-proxy/exec";
import type { Boundaries } from "@csi-proxy/filesystem";
import type { PathMapping } from "../paths.js";
import { diskNameNotFound } from "../handlers/disk.js";
import type { Message, NodeGroups } from "../handlers/context.js";
import type { Grant, Grants } from "./grants.js";
import { parseRemotePath } from "@csi-proxy/smb";
import type { Caller } from "../identity.js";
import type { Policy } from "./load.js";
import { nodeWideMethods, type PathGrant } from "./grants.js";
import { pathMatches, smbMatches, type PortalKey } from "./match.js";
import { iqnGranted, portalGranted } from "./ownership-facts.js";
import { OwnershipIndex, type OwnershipSettings } from "./ownership.js";
import type { PathResolver, Resolved } from "./resolve.js";
import { describeResource, type Resource } from "./resources.js";

/** A refusal: which grant kind was missing, for what. */
export interface Denial {
  /** The policy field that would have had to grant it (`methods`, `paths`, `disks`, ...). */
  readonly grant: string;
  /** What it was asked for. */
  readonly what: string;
  /** For the audit log only: why a lookup on the host could not show it to be the caller's. */
  readonly note?: string;
}

/** A decision on one request. */
export type Decision =
  | {
      readonly allowed: true;
      /**
       * The granted folders the request's paths lie in, as written and where their links lead
       * (Windows paths): the filesystem group acts for the call confined to these.
       */
      readonly roots: readonly string[];
    }
  | { readonly allowed: false; readonly denial: Denial };

const allowed: Decision = { allowed: true, roots: [] };
// Listing RPCs whose answer is a map keyed by disk number, and the map's field.
const diskListings: Readonly<Record<string, string>> = {
  "disk.ListDiskIDs": "diskIDs",
  "disk.ListDiskLocations": "disk_locations",
};

const deny = (grant: string, what: string, note?: string): Decision => ({
  allowed: false,
  denial: note === undefined ? { grant, what } : { grant, what, note },
});

/**
 * Runs an ownership lookup on the host. A lookup that fails (no such volume, the initiator
 * service stopped) shows nothing to be the caller's: a denial, the same whether the resource
 * exists or not, with the reason kept for the audit log. The call's own end (ABORTED, TIMEOUT)
 * stays what it is.
 */
async function owned(check: () => Promise<boolean>): Promise<{ ok: boolean; note?: string }> {
  try {
    return { ok: await check() };
  } catch (error) {
    if (isCsiProxyError(error) && (error.code === "ABORTED" || error.code === "TIMEOUT")) {
      throw error;
    }
    const why = isCsiProxyError(error) ? `${error.code}: ${error.message}` : String(error);
    return { ok: false, note: `the host lookup failed: ${why}` };
  }
}

/** The CSI driver kubelet recorded for a pod volume folder (`vol_data.json`), read-only. */
export type PodVolumeOwner = (windowsFolder: string) => Promise<string | undefined>;

// Path fields the method acts on as a name, never through it: a link there is removed, looked
// at or replaced itself (Rmdir, with force too, removes a link as a link and holds every folder
// it empties, so its target is never touched). Every other path field is authorised where its
// links lead, last name included.
const actsOnName = new Set([
  "filesystem.Rmdir path",
  "filesystem.IsSymlink path",
  "filesystem.IsMountPoint path",
  "filesystem.CreateSymlink target_path",
  "filesystem.LinkPath target_path",
  "smb.NewSmbGlobalMapping local_path",
]);

/** The folder of `path` that a grant's pattern names: its first segments, as written. */
function grantedFolder(path: string, grant: PathGrant): string {
  return path
    .split("\\")
    .filter((s) => s !== "")
    .slice(0, grant.pattern.length)
    .join("\\");
}

/** The policy's decisions, with the read-only host checks that disks and volumes need. */
export class Authorizer {
  readonly #groups: NodeGroups;
  readonly #resolve: PathResolver | undefined;
  readonly #ownerOf: PodVolumeOwner | undefined;
  readonly #paths: PathMapping | undefined;
  /** Whose disks and volumes are whose: shared by every caller (docs/ownership.md). */
  readonly ownership: OwnershipIndex;

  /**
   * `resolve` follows a path's links on the host; a path must be granted where they lead too.
   * `ownerOf` reads which driver a pod volume folder is for; without it no pod volume folder is
   * granted by a `driver` rule. `paths` maps the filesystem group's host paths back to Windows
   * paths, for the {@link Authorizer.boundaries} it is given; without it no share is passed.
   */
  constructor(
    groups: NodeGroups,
    resolve?: PathResolver,
    ownerOf?: PodVolumeOwner,
    paths?: PathMapping,
    ownership?: OwnershipSettings,
  ) {
    this.#groups = groups;
    this.#resolve = resolve;
    this.#ownerOf = ownerOf;
    this.#paths = paths;
    this.ownership = new OwnershipIndex(groups, ownership);
  }

  /**
   * Whether a Windows path, as it is (links already resolved), lies in a folder the grants
   * give: for what a call made, found where it really is (a mount point after MountVolume).
   */
  async pathGranted(grants: Grants, path: string): Promise<boolean> {
    return (await this.#grantedFolders(grants, path)).length > 0;
  }

  /**
   * What the filesystem group, confined to a call's granted folders, may pass beyond them: a
   * volume mounted in them only when it is the caller's (its disk granted), a share only through
   * a link of the caller's own (never one inside a mounted volume, which the volume's users may
   * have made). The same decisions as {@link Authorizer.decide}'s, made again on the group's
   * walk, which acts through held folders.
   */
  boundaries(grants: Grants, options: CallOptions): Boundaries {
    return {
      volume: async (volumeId) =>
        (await owned(() => this.ownership.volumeOwned(grants, volumeId, options))).ok,
      share: async (remotePath, via) => {
        const windows = this.#paths?.fromHost(via.path);
        if (windows === undefined || via.pastVolume) return false;
        return this.#mappedShareGranted(grants, remotePath, windows);
      },
    };
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
    const named = nodeWideMethods.has(method);
    if (named ? !grants.nodeWide.has(method) : !grants.methods.some((p) => p.test(method))) {
      return deny("methods", method);
    }
    for (const resource of resources) {
      const decision = this.#offline(grants, resource);
      if (!decision.allowed) return decision;
    }
    const roots = new Set<string>();
    for (const resource of resources) {
      if (resource.kind !== "path") continue;
      const asWritten = await this.#grantedFolders(grants, resource.path);
      if (asWritten.length === 0) return deny("paths", describeResource(resource));
      const followFinal = !actsOnName.has(`${method} ${resource.field}`);
      const resolved = await this.#resolvedFolders(grants, resource.path, followFinal, options);
      // Where the links lead is the host's business, not the caller's: it is not said.
      if (resolved === undefined) {
        return deny("paths", `${resource.path} (once its links are followed)`);
      }
      for (const folder of [...asWritten, ...resolved]) roots.add(folder);
    }
    for (const resource of resources) {
      if (resource.kind === "disk") {
        const { ok, note } = await owned(() =>
          this.ownership.diskOwned(grants, resource.diskNumber, options),
        );
        if (!ok) return deny("disks", describeResource(resource), note);
      }
      if (resource.kind === "volume") {
        const { ok, note } = await owned(() =>
          this.ownership.volumeOwned(grants, resource.volumeId, options),
        );
        if (!ok) return deny("volumes", describeResource(resource), note);
      }
    }
    if (method === "smb.RemoveSmbGlobalMapping") {
      const share = resources.find((r) => r.kind === "smbRemotePath");
      if (share !== undefined) {
        const refused = this.#wholeShareRefusal(grants, share.remotePath);
        if (refused !== undefined) return refused;
      }
    }
    if (method === "iscsi.RemoveTargetPortal") {
      const portal = resources.find((r) => r.kind === "iscsiPortal");
      const mine =
        portal === undefined
          ? { ok: true }
          : await owned(() => this.#portalOnlyMine(grants, portal.portal, options));
      if (portal !== undefined && !mine.ok) {
        // Which target keeps it in use is another caller's business: it is not said.
        return deny(
          "iscsiTargets",
          `${describeResource(portal)} (a session of another target uses it)`,
          mine.note,
        );
      }
    }
    return { allowed: true, roots: [...roots] };
  }

  /**
   * Keeps, of what a listing RPC answers, only what the caller is granted: the node's other
   * portals and disks are other callers' business.
   */
  async narrow(
    grants: Grants,
    method: string,
    response: Message,
    options: CallOptions,
    request: Message = {},
  ): Promise<Message> {
    if (method === "iscsi.ListTargetPortals") {
      const portals = (response.target_portals ?? []) as Message[];
      return {
        ...response,
        target_portals: portals.filter((p) =>
          portalGranted(grants, {
            address: String(p.target_address).toLowerCase(),
            port: Number(p.target_port),
          }),
        ),
      };
    }
    const listing = diskListings[method];
    if (listing !== undefined && !grants.disksAny) {
      const byDisk = (response[listing] ?? {}) as Record<string, unknown>;
      // One decision for the whole listing, not a host lookup per disk; a failed lookup keeps none.
      let granted = new Set<number>();
      await owned(async () => {
        granted = await this.ownership.disksOwned(grants, Object.keys(byDisk).map(Number), options);
        return true;
      });
      const kept = Object.fromEntries(
        Object.entries(byDisk).filter(([number]) => granted.has(Number(number))),
      );
      return { ...response, [listing]: kept };
    }
    if (method === "disk.GetDiskNumberByName" && !grants.disksAny) {
      const number = Number(response.disk_number);
      // Answered as for a disk that is not there: whether another caller's exists is not said.
      if (!(await owned(() => this.ownership.diskOwned(grants, number, options))).ok) {
        throw diskNameNotFound(typeof request.disk_name === "string" ? request.disk_name : "");
      }
    }
    return response;
  }

  /**
   * RemoveSmbGlobalMapping removes the share root's mapping, which every staging link into that
   * share uses: it is the caller's to remove only when its grant covers the whole share and no
   * other rule grants any path in it. What the policy grants others is not said.
   */
  #wholeShareRefusal(grants: Grants, remotePath: string): Decision | undefined {
    const { shareRoot } = parseRemotePath(remotePath);
    const what = `SMB share ${shareRoot} (its mapping serves every path in the share)`;
    const covers = (prefixes: Grant<string>) =>
      prefixes === "any" || prefixes.some((prefix) => smbMatches(shareRoot, prefix));
    if (!covers(grants.smbRemotePaths)) return deny("smbRemotePaths", what);
    const others = grants.othersSmbRemotePaths;
    if (others === "any" || covers(others) || others.some((p) => smbMatches(p, shareRoot))) {
      return deny("smbRemotePaths", what, "another rule grants a path in the share");
    }
    return undefined;
  }

  // A portal may carry sessions of several callers' targets (two StorageClasses on one array):
  // it is removed only when every logged-in target discovered on it is the caller's.
  async #portalOnlyMine(grants: Grants, portal: PortalKey, options: CallOptions): Promise<boolean> {
    const targetPortal = { targetAddress: portal.address, targetPort: portal.port };
    let iqns: readonly string[];
    try {
      ({ iqns } = await this.#groups.iscsi.discoverTargetPortal({ targetPortal }, options));
    } catch (error) {
      // Not registered: nothing to remove, so nothing of anyone's to cut.
      if (isCsiProxyError(error) && error.code === "NOT_FOUND") return true;
      throw error;
    }
    for (const iqn of iqns) {
      if (iqnGranted(grants, iqn)) continue;
      const { diskIds } = await this.#groups.iscsi.getTargetDisks({ targetPortal, iqn }, options);
      if (diskIds.length > 0) return false;
    }
    return true;
  }

  /** The granted folders `path` lies in (a pod volume folder only when it is the driver's). */
  async #grantedFolders(grants: Grants, path: string): Promise<string[]> {
    const out: string[] = [];
    for (const grant of grants.paths) {
      if (!pathMatches(path, grant.pattern)) continue;
      const folder = grantedFolder(path, grant);
      if (grant.podVolumesOf !== undefined) {
        let owner: string | undefined;
        try {
          owner = await this.#ownerOf?.(folder);
        } catch {
          owner = undefined; // unreadable: not shown to be the driver's
        }
        if (owner !== grant.podVolumesOf) continue;
      }
      out.push(folder);
    }
    return out;
  }

  // A junction or symlink inside a granted folder (a pod can make one in its own volume) must not
  // carry a request into a folder the caller was not given, nor a volume mount point into a
  // volume that is not the caller's. Undefined: not shown to be granted.
  async #resolvedFolders(
    grants: Grants,
    path: string,
    followFinal: boolean,
    options: CallOptions,
  ): Promise<string[] | undefined> {
    if (this.#resolve === undefined) return [];
    let resolved: Resolved | undefined;
    try {
      resolved = await this.#resolve(path, followFinal);
    } catch {
      return undefined; // a link loop, a folder that cannot be read: not shown to be granted
    }
    if (resolved === undefined) return undefined;
    for (const volumeId of resolved.volumes) {
      if (!(await owned(() => this.ownership.volumeOwned(grants, volumeId, options))).ok) {
        return undefined;
      }
    }
    if ("remote" in resolved) {
      // A link inside a mounted volume is its users' (a workload pod's), not the caller's own.
      if (resolved.pastVolume) return undefined;
      return (await this.#mappedShareGranted(grants, resolved.remote, resolved.via))
        ? []
        : undefined;
    }
    const folders = await this.#grantedFolders(grants, resolved.local);
    return folders.length === 0 ? undefined : folders;
  }

  /**
   * A path that leads to an SMB share through a link (an SMB driver's staging path, which
   * NewSmbGlobalMapping made a link to the share, or a pod's published link, pinned to the
   * share) is covered when the share path lies in the caller's `smbRemotePaths` and the link is
   * one only the caller could have made: in a folder of its own, or directly in a pod volume
   * folder of its own (kubelet's folder: `<pv>\mount`, made through this server). A link
   * deeper in a pod volume folder lies in what is mounted there, which the pod writes: it
   * leads nowhere, even to a granted share. (A link inside a mounted volume is refused before.)
   */
  async #mappedShareGranted(grants: Grants, remote: string, via: string): Promise<boolean> {
    let inPrefix: boolean;
    try {
      inPrefix =
        grants.smbRemotePaths === "any" ||
        grants.smbRemotePaths.some((prefix) => smbMatches(remote, prefix));
    } catch {
      return false; // not a remote path the SMB group would take
    }
    if (!inPrefix) return false;
    const plain = { ...grants, paths: grants.paths.filter((g) => g.podVolumesOf === undefined) };
    if ((await this.#grantedFolders(plain, via)).length > 0) return true;
    const podVolumes = {
      ...grants,
      paths: grants.paths.filter((g) => g.podVolumesOf !== undefined),
    };
    const depth = (path: string) => path.split("\\").filter(Boolean).length;
    const folders = await this.#grantedFolders(podVolumes, via);
    return folders.some((folder) => depth(via) === depth(folder) + 1);
  }

  #offline(grants: Grants, resource: Resource): Decision {
    const what = describeResource(resource);
    switch (resource.kind) {
      case "path":
        return grants.paths.some((grant) => pathMatches(resource.path, grant.pattern))
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
}

/** A refusal as the caller sees it, and as the audit log records it. */
export interface Refusal {
  /** PERMISSION_DENIED naming the method, the missing grant kind and what the request named. */
  readonly error: CsiProxyError;
  /** The same, with the policy file and the caller's rules, for the audit log only. */
  readonly reason: string;
}

/**
 * A denial: the caller learns which grant kind was missing for what it asked, never where the
 * policy file is or what its rules are called.
 */
export function refusal(
  policy: Policy,
  caller: Caller,
  method: string,
  grants: Grants | undefined,
  denial?: Denial,
): Refusal {
  if (grants === undefined) {
    return {
      error: new CsiProxyError(`No policy rule admits this caller; ${method} is denied.`, {
        code: "PERMISSION_DENIED",
      }),
      reason: `Policy ${policy.source} has no rule for caller ${caller.name}; ${method} is denied.`,
    };
  }
  const what = `no "${denial?.grant ?? "methods"}" grant covers ${denial?.what ?? method}`;
  return {
    error: new CsiProxyError(`${method} is denied: ${what}.`, { code: "PERMISSION_DENIED" }),
    reason: `Policy ${policy.source} denies ${method} to caller ${caller.name}: ${what} (rules: ${grants.rules.join(", ")})${denial?.note === undefined ? "" : `; ${denial.note}`}.`,
  };
}
