import {
  bindHost,
  createKeyedLock,
  CsiProxyError,
  groupOptions,
  invalidArgument,
  objectOption,
  pathStyleOption,
  withCallContext,
  type CallContext,
  type CallOptions,
  type HostBinding,
} from "@csi-proxy/exec";
import { linkError, toSmbError } from "./errors.js";
import { createPowerShellSmbHost } from "./host.js";
import type { SmbHost, SmbLinkHost } from "./host-types.js";
import { createNodeSmbLinkHost } from "./link-host.js";
import { isSameTarget, linkTargetFor } from "./link-target.js";
import { localPathKey, type LocalPathRules, type PathStyle } from "./local-path.js";
import { parseRemotePath } from "./remote-path.js";
import { withoutSecrets } from "./secrets.js";
import type {
  ListSmbGlobalMappingsRequest,
  ListSmbGlobalMappingsResponse,
  NewSmbGlobalMappingRequest,
  NewSmbGlobalMappingResponse,
  RemoveSmbGlobalMappingRequest,
  RemoveSmbGlobalMappingResponse,
  SmbOptions,
} from "./types.js";
import { checkNewMapping, requestObject, type CheckedNewMapping } from "./validate.js";

type LinkPlan = "none" | "existing" | "create" | "replaceEmptyDirectory";

function conflict(message: string): CsiProxyError {
  return new CsiProxyError(message, { code: "CONFLICT" });
}

// One lock table per process, so two Smb instances cannot interleave work on one share or path.
const smbLocks = createKeyedLock();

/**
 * SMB global mappings for a CSI node plugin: one mapping per share root (`\\server\share`,
 * lower-cased), reused while it works, repaired when it is broken, and linked into pod paths.
 * Requests are validated before anything runs; calls on one share are serialised.
 *
 * @example
 * ```ts
 * import { Smb, isCsiProxyError } from "@csi-proxy/smb";
 *
 * const smb = new Smb();
 * await smb.newSmbGlobalMapping({
 *   remotePath: "\\\\fileserver\\data\\pv-1",
 *   localPath: "C:\\var\\lib\\kubelet\\plugins\\smb.csi.k8s.io\\pv-1\\globalmount",
 *   username: "CONTOSO\\svc-k8s",
 *   password: secret,
 *   requirePrivacy: true,
 * });
 * await smb.removeSmbGlobalMapping({ remotePath: "\\\\fileserver\\data" });
 * await smb.close();
 * ```
 */
export class Smb {
  private readonly binding: HostBinding<SmbHost>;
  private readonly links: SmbLinkHost;
  private readonly locks = smbLocks;
  private readonly rules: LocalPathRules;

  constructor(options: SmbOptions = {}) {
    const own = groupOptions(options, "Smb");
    const systemDrive = own("systemDrive") as string | undefined;
    this.rules = {
      style: pathStyleOption(own("pathStyle")),
      ...(systemDrive === undefined ? {} : { systemDrive }),
    };
    this.links =
      (objectOption(own("links"), "Smb: links") as SmbLinkHost | undefined) ??
      createNodeSmbLinkHost();
    this.binding = bindHost("Smb", options, createPowerShellSmbHost);
  }

  private get host(): SmbHost {
    return this.binding.host;
  }

  /**
   * A view of this Smb whose mappings' links are made through `links`, on the same host, locks
   * and rules: for a caller whose links must be made where it is allowed, such as a server that
   * makes them through a filesystem confined to the caller's folders.
   *
   * @example
   * ```ts
   * const mine = smb.withLinks(linksOfTenant);
   * await mine.newSmbGlobalMapping({ remotePath, localPath, requirePrivacy: true });
   * ```
   */
  withLinks(links: SmbLinkHost): Smb {
    if (objectOption(links, "withLinks: links") === undefined) {
      throw invalidArgument("withLinks: links is required.");
    }
    const view = Object.create(Smb.prototype) as Smb;
    Object.assign(view, { binding: this.binding, links, locks: this.locks, rules: this.rules });
    return view;
  }

  /** The rules applied to `localPath`. */
  get pathStyle(): PathStyle {
    return this.rules.style;
  }

  /**
   * Makes the share available: reuses the share root's mapping when it is OK and its path opens,
   * replaces it when it is not (e.g. after a password change), creates it when there is none,
   * then links `localPath` to the full remote path. A link already pointing there is success.
   * Credentials of a reused mapping are not compared (as upstream).
   *
   * Cancelled: a stale mapping may have been removed, the mapping created, an empty folder at
   * `localPath` removed or the link created; a retry is safe, because it creates a missing
   * mapping, reuses a working one and takes a link to the same target as success. A cancelled
   * call holds its share and path until a file operation already under way settles, so a retry
   * sees where it ended.
   */
  async newSmbGlobalMapping(
    request: NewSmbGlobalMappingRequest,
    options?: CallOptions,
  ): Promise<NewSmbGlobalMappingResponse> {
    const checked = checkNewMapping(request, this.rules);
    const { remote, localPath } = checked;
    const keys = [`smb:${remote.shareRoot}`];
    if (localPath !== undefined) keys.push(localPathKey(localPath, this.rules.style));
    const secrets = checked.password === undefined ? [] : [checked.password];
    return withCallContext("newSmbGlobalMapping", options, async (context) => {
      try {
        // Raced outside the lock: the call ends at its deadline, the lock once the fs work settles.
        return await context.race(
          this.locks.run(keys, () => this.mapAndLink(checked, context), context.signal),
        );
      } catch (error) {
        throw withoutSecrets(error, secrets);
      }
    });
  }

  /**
   * Removes the share root's global mapping; a missing mapping is success. Links are left alone.
   *
   * Cancelled: the mapping may have been removed; a retry is safe (it then answers `removed: false`).
   */
  async removeSmbGlobalMapping(
    request: RemoveSmbGlobalMappingRequest,
    options?: CallOptions,
  ): Promise<RemoveSmbGlobalMappingResponse> {
    const { shareRoot } = parseRemotePath(requestObject(request).remotePath);
    return withCallContext("removeSmbGlobalMapping", options, (context) =>
      this.locks.run(
        `smb:${shareRoot}`,
        async () => {
          try {
            return { removed: await this.host.removeMapping(shareRoot, context) };
          } catch (error) {
            throw toSmbError(error, `Removing the mapping of ${shareRoot}`);
          }
        },
        context.signal,
      ),
    );
  }

  /**
   * Every global mapping on the node, with its status as a name and as Windows' code.
   *
   * Cancelled: nothing has changed (it only reads); a retry is safe.
   */
  async listSmbGlobalMappings(
    request: ListSmbGlobalMappingsRequest = {},
    options?: CallOptions,
  ): Promise<ListSmbGlobalMappingsResponse> {
    requestObject(request);
    return withCallContext("listSmbGlobalMappings", options, async (context) => {
      let found;
      try {
        found = await this.host.listMappings(context);
      } catch (error) {
        throw toSmbError(error, "Listing the SMB global mappings");
      }
      return {
        mappings: found.map(({ remotePath, localPath, status, statusCode }) => ({
          remotePath,
          ...(localPath === undefined ? {} : { localPath }),
          status,
          statusCode,
        })),
      };
    });
  }

  /** Ends the PowerShell processes this instance started (not a `shell` passed in). */
  async close(): Promise<void> {
    await this.binding.close();
  }

  /** The work of {@link Smb.newSmbGlobalMapping} under its locks; stops between steps once the call is over. */
  private async mapAndLink(
    checked: CheckedNewMapping,
    context: CallContext,
  ): Promise<NewSmbGlobalMappingResponse> {
    const { remote, localPath } = checked;
    const plan =
      localPath === undefined ? "none" : await this.planLink(localPath, remote.path, context);
    context.throwIfDone();
    const mapping = await this.ensureMapping(checked, context);
    if (localPath !== undefined) await this.makeLink(plan, localPath, remote.path, context);
    return { mapping, link: plan === "none" || plan === "existing" ? plan : "created" };
  }

  private async ensureMapping(
    checked: CheckedNewMapping,
    context: CallContext,
  ): Promise<"created" | "reused" | "recreated"> {
    const { shareRoot } = checked.remote;
    try {
      return await this.host.ensureMapping(
        {
          shareRoot,
          username: checked.username,
          password: checked.password,
          requirePrivacy: checked.requirePrivacy,
        },
        context,
      );
    } catch (error) {
      // Without a username Windows logs on as this node's computer account: say so, it is the usual cause.
      const subject =
        checked.username === undefined
          ? `Mapping ${shareRoot} without credentials (as this node's computer account)`
          : `Mapping ${shareRoot}`;
      throw toSmbError(error, subject);
    }
  }

  /** Decides what to do at `localPath` before any mapping is touched, so a conflict leaks nothing. */
  private async planLink(
    localPath: string,
    remotePath: string,
    context: CallContext,
  ): Promise<LinkPlan> {
    let entry;
    try {
      entry = await this.links.readLink(localPath, context);
    } catch (error) {
      throw linkError("inspect", localPath, error);
    }
    switch (entry.kind) {
      case "missing":
        return "create";
      case "link":
        if (isSameTarget(entry.target, remotePath)) return "existing";
        throw conflict(`${localPath} is already a link to ${entry.target}, not to ${remotePath}.`);
      case "directory":
        if (entry.empty) return "replaceEmptyDirectory";
        throw conflict(
          `${localPath} is a folder that is not empty; it cannot become a link to ${remotePath}.`,
        );
      case "file":
        throw conflict(`${localPath} is a file; it cannot become a link to ${remotePath}.`);
    }
  }

  private async makeLink(
    plan: LinkPlan,
    localPath: string,
    remotePath: string,
    context: CallContext,
  ): Promise<void> {
    if (plan === "replaceEmptyDirectory") {
      context.throwIfDone();
      try {
        await this.links.removeEmptyDirectory(localPath, context);
      } catch (error) {
        throw linkError("remove the empty folder", localPath, error);
      }
    }
    if (plan === "create" || plan === "replaceEmptyDirectory") {
      context.throwIfDone();
      try {
        await this.links.createLink(localPath, linkTargetFor(remotePath), context);
      } catch (error) {
        throw linkError(`link ${remotePath} at`, localPath, error);
      }
    }
  }
}
