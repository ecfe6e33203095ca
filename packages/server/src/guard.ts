import { status } from "@grpc/grpc-js";
import { CsiProxyError, isCsiProxyError } from "@csi-proxy/exec";
import { isConfinedRefusal } from "./confined-refusal.js";
import { auditLine, type AuditSink } from "./audit.js";
import { CallTrace } from "./call-trace.js";
import type { CallOptions } from "@csi-proxy/exec";
import type { Message, Rpc } from "./handlers/context.js";
import type { Caller, Identify } from "./identity.js";
import { refusal, type Authorizer, type Decision } from "./policy/authorize.js";
import { v1CompatiblePolicy, type Policy } from "./policy/load.js";
import type { Boundaries } from "@csi-proxy/filesystem";
import { intersectRoots } from "./policy/roots.js";
import type { Grants } from "./policy/grants.js";
import { describeResource, resourcesOf, type Resource } from "./policy/resources.js";
import { learnFromAnswer, movesDiskNumbers, showsChange } from "./policy/learn.js";
import { grpcStatusOf } from "./status.js";
import { serverCallOptions } from "./call-defaults.js";

/** What the guard needs: the policy, its authorizer and where decisions are recorded. */
export interface GuardContext {
  readonly policy: Policy;
  readonly authorizer: Authorizer;
  readonly audit: AuditSink;
  /** Who is calling, from the call's `authorization` metadata. */
  readonly identify: Identify;
}

/**
 * An RPC behind the guard: it also takes the call's `authorization` metadata values, the
 * peer the call came from (`uid=…,gid=…,pid=…`, `pid=…` or `unknown`; for the audit log only)
 * and the call's trace, which the guard tells who called and what it audited.
 */
export type GuardedRpc = (
  authorization: readonly unknown[],
  request: Message,
  options: CallOptions,
  peer: string,
  trace?: CallTrace,
) => Promise<Message>;

/** Where a guarded RPC is served: its endpoint (`disk-v1`) in one endpoint set. */
export interface GuardedEndpoint {
  /** `<group>-<version>`. */
  readonly endpoint: string;
  /** The endpoint set (`--endpoint-set`), `default` for upstream's names. */
  readonly endpointSet: string;
}

// Request fields whose values never reach a log or a status's details.
export const secretFields = ["password", "chap_secret", "MutualChapSecret"] as const;

/** The secret values a request carries. */
export function secretsOf(request: Readonly<Record<string, unknown>>): string[] {
  return secretFields
    .map((field) => request[field])
    .filter((v): v is string => typeof v === "string");
}

/**
 * Wraps an RPC so that it runs only when the policy allows it for the caller, and records every
 * decision. A denial is PERMISSION_DENIED and runs nothing on the host but the read-only lookups
 * that decide whether a disk or volume is the caller's.
 */
export function guarded(
  where: GuardedEndpoint,
  method: string,
  rpc: Rpc,
  guard: GuardContext,
): GuardedRpc {
  const { endpoint, endpointSet } = where;
  return async (authorization, request, callOptions, peer, trace = new CallTrace()) => {
    // A deadline when the client sent none, and, with several sets, the set's own turn in the
    // PowerShell pool (one set alone keeps every process: there is no other set to leave one to).
    const sets = guard.policy.endpointSets?.length ?? 1;
    const options = serverCallOptions(callOptions, sets > 1 ? endpointSet : undefined);
    let caller: Caller = { kind: "local", name: "unauthenticated" };
    // The caller's own grants, then (a token on a set with rules of its own) the set's.
    let layers: Grants[] = [];
    let resources: Resource[] = [];
    // A refusal's line ends the call: it carries the status the caller gets.
    const record = (decision: "allow" | "deny" | "error", reason: string, ends?: status) => {
      guard.audit(
        auditLine(
          {
            time: new Date().toISOString(),
            call: trace.id,
            caller: caller.name,
            method,
            endpoint,
            endpointSet,
            peer,
            resources: resources.map(describeResource),
            decision,
            rules: [...new Set(layers.flatMap((grants) => grants.rules))],
            reason,
            ...(ends === undefined ? {} : { status: status[ends], durationMs: trace.elapsedMs() }),
          },
          secretsOf(request),
        ),
      );
      trace.audited = true;
      trace.closed = ends !== undefined;
    };
    try {
      caller = await guard.identify(authorization);
    } catch (error) {
      record(
        "deny",
        error instanceof Error ? error.message : String(error),
        status.UNAUTHENTICATED,
      );
      throw error;
    }
    trace.caller = caller.name;
    const grants = guard.policy.grantsFor(caller, endpointSet);
    if (grants === undefined) {
      const { error, reason } = refusal(guard.policy, caller, method, undefined);
      record("deny", reason, status.PERMISSION_DENIED);
      throw error;
    }
    const ofSet =
      caller.kind === "serviceAccount" ? guard.policy.endpointSetGrants(endpointSet) : undefined;
    layers = ofSet === undefined ? [grants] : [grants, ofSet];
    let roots: readonly string[] | undefined;
    const boundaries = bothLayers(
      layers.map((layer) => guard.authorizer.boundaries(layer, options)),
    );
    for (const layer of layers) {
      let decision: Decision;
      try {
        resources = resourcesOf(method, request);
        decision = await guard.authorizer.decide(layer, method, resources, options);
      } catch (error) {
        const why = isCsiProxyError(error) ? `${error.code}: ${error.message}` : String(error);
        record("error", why, grpcStatusOf(error));
        throw error;
      }
      if (!decision.allowed) {
        const { error, reason } = refusal(guard.policy, caller, method, layer, decision.denial);
        const ofSetNote = layer === grants ? "" : ` (endpoint set ${endpointSet})`;
        record("deny", `${reason}${ofSetNote}`, status.PERMISSION_DENIED);
        throw error;
      }
      roots = roots === undefined ? decision.roots : intersectRoots(roots, decision.roots);
    }
    record("allow", `granted by ${layers.flatMap((layer) => layer.rules).join(", ")}`);
    try {
      const pinLinks = guard.policy.source !== v1CompatiblePolicy;
      const granted = async (path: string) => {
        for (const layer of layers)
          if (!(await guard.authorizer.pathGranted(layer, path))) return false;
        return true;
      };
      let response = await answered(guard, method, resources, () =>
        rpc(request, options, { roots: roots ?? [], boundaries, pinLinks, granted }),
      );
      for (const layer of layers) {
        response = await guard.authorizer.narrow(layer, method, response, options, request);
      }
      return response;
    } catch (error) {
      // A group's own refusal of a path (where a link leads, a mount that landed elsewhere) is
      // the audit log's; the caller learns the request's resources and the grant kind.
      const groupRefused =
        isCsiProxyError(error) &&
        error.code === "PERMISSION_DENIED" &&
        (method.startsWith("filesystem.") || isConfinedRefusal(error));
      if (!groupRefused) throw error;
      record("deny", `${method}: the group refused: ${error.message}`, status.PERMISSION_DENIED);
      throw new CsiProxyError(
        `${method} is denied: no "paths" grant covers ${resources.map(describeResource).join(", ")} (where its links lead).`,
        { code: "PERMISSION_DENIED" },
      );
    }
  };
}

/**
 * Runs an allowed call and tells the ownership index what it learns: the answer's facts (read as
 * of the call's start), a change that can move disk numbers while it runs, and a disk or volume
 * found missing (the node changed under the server).
 */
async function answered(
  guard: GuardContext,
  method: string,
  resources: readonly Resource[],
  run: () => Promise<Message>,
): Promise<Message> {
  const ownership = guard.authorizer.ownership;
  const at = ownership.now();
  const endChange = movesDiskNumbers(method) ? ownership.beginChange() : undefined;
  try {
    const response = await run();
    learnFromAnswer(ownership, method, resources, response, at);
    return response;
  } catch (error) {
    if (showsChange(method, error)) ownership.noteChange();
    throw error;
  } finally {
    endChange?.();
  }
}

/** Boundaries every layer's grants allow (a token's own and its endpoint set's). */
function bothLayers(all: readonly Boundaries[]): Boundaries {
  return {
    volume: async (volumeId, context) => {
      for (const one of all) if (!(await one.volume?.(volumeId, context))) return false;
      return true;
    },
    share: async (remotePath, via, context) => {
      for (const one of all) if (!(await one.share?.(remotePath, via, context))) return false;
      return true;
    },
  };
}
