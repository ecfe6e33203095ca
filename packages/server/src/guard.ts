import { CsiProxyError, isCsiProxyError } from "@csi-proxy/exec";
import { auditLine, type AuditSink } from "./audit.js";
import type { CallOptions } from "@csi-proxy/exec";
import type { Message, Rpc } from "./handlers/context.js";
import type { Caller, Identify } from "./identity.js";
import { refusal, type Authorizer } from "./policy/authorize.js";
import type { Policy } from "./policy/load.js";
import { describeResource, resourcesOf, type Resource } from "./policy/resources.js";

/** What the guard needs: the policy, its authorizer and where decisions are recorded. */
export interface GuardContext {
  readonly policy: Policy;
  readonly authorizer: Authorizer;
  readonly audit: AuditSink;
  /** Who is calling, from the call's `authorization` metadata. */
  readonly identify: Identify;
}

/** An RPC behind the guard: it also takes the call's `authorization` metadata values. */
export type GuardedRpc = (
  authorization: readonly unknown[],
  request: Message,
  options: CallOptions,
) => Promise<Message>;

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
  endpoint: string,
  method: string,
  rpc: Rpc,
  guard: GuardContext,
): GuardedRpc {
  return async (authorization, request, options) => {
    let caller: Caller = { kind: "local", name: "unauthenticated" };
    let grants = undefined as ReturnType<Policy["grantsFor"]>;
    let resources: Resource[] = [];
    const record = (decision: "allow" | "deny" | "error", reason: string) =>
      guard.audit(
        auditLine(
          {
            time: new Date().toISOString(),
            caller: caller.name,
            method,
            endpoint,
            resources: resources.map(describeResource),
            decision,
            rules: grants?.rules ?? [],
            reason,
          },
          secretsOf(request),
        ),
      );
    try {
      caller = await guard.identify(authorization);
    } catch (error) {
      record("deny", error instanceof Error ? error.message : String(error));
      throw error;
    }
    grants = guard.policy.grantsFor(caller);
    if (grants === undefined) {
      const { error, reason } = refusal(guard.policy, caller, method, undefined);
      record("deny", reason);
      throw error;
    }
    let decision;
    try {
      resources = resourcesOf(method, request);
      decision = await guard.authorizer.decide(grants, method, resources, options);
    } catch (error) {
      record("error", isCsiProxyError(error) ? `${error.code}: ${error.message}` : String(error));
      throw error;
    }
    if (!decision.allowed) {
      const { error, reason } = refusal(guard.policy, caller, method, grants, decision.denial);
      record("deny", reason);
      throw error;
    }
    record("allow", `granted by ${grants.rules.join(", ")}`);
    try {
      const response = await rpc(request, options, { roots: decision.roots });
      return await guard.authorizer.narrow(grants, method, response, options);
    } catch (error) {
      const groupRefused =
        isCsiProxyError(error) &&
        error.code === "PERMISSION_DENIED" &&
        method.startsWith("filesystem.");
      if (!groupRefused) throw error;
      // A group's own root check (where a link leads, the roots in force) is the audit log's.
      record("deny", `${method}: the group refused: ${error.message}`);
      throw new CsiProxyError(
        `${method} is denied: no "paths" grant covers ${resources.map(describeResource).join(", ")} (where its links lead).`,
        { code: "PERMISSION_DENIED" },
      );
    }
  };
}
