import { createHash } from "node:crypto";
import { createRedactor } from "@csi-proxy/exec";
import { cutMiddle } from "./cut-text.js";

/** What every line of one call carries: which call, who, what, where. */
export interface AuditCall {
  /** When it was written (ISO 8601). */
  readonly time: string;
  /** The call's id, the same on each of its lines and in the server's log line for it. */
  readonly call: string;
  /** Who called. */
  readonly caller: string;
  /** The RPC, as `group.Method`. */
  readonly method: string;
  /** The endpoint it came in on (`disk-v1`, ...). */
  readonly endpoint: string;
  /** The endpoint set of that endpoint (`--endpoint-set`; `default` for upstream's names). */
  readonly endpointSet: string;
  /**
   * The process at the other end, as the kernel says: `uid=…,gid=…,pid=…` (Linux, SO_PEERCRED),
   * `pid=…` (Windows, GetNamedPipeClientProcessId), or `unknown`.
   */
  readonly peer: string;
}

/** One access decision, as written to the audit log before the call runs or is refused. */
export interface AuditRecord extends AuditCall {
  /** What the request names (paths, disks, targets, ...); never a secret. */
  readonly resources: readonly string[];
  /** `allow`, `deny`, or `error` when the request was refused before a decision (bad input). */
  readonly decision: "allow" | "deny" | "error";
  /** The rules that applied to the caller. */
  readonly rules: readonly string[];
  /** Why. */
  readonly reason: string;
  /** On a refusal, the line that ends the call: the status the caller got (`PERMISSION_DENIED`). */
  readonly status?: string;
  /** With `status`: milliseconds from the call's arrival to its refusal. */
  readonly durationMs?: number;
}

/** How an allowed call ended, written after it ran: the call's last line. */
export interface AuditOutcome extends AuditCall {
  /** The gRPC status the caller got, by name (`OK`, `NOT_FOUND`, ...). */
  readonly status: string;
  /** Milliseconds from the call's arrival to its answer. */
  readonly durationMs: number;
  /** The status's details, on failure. */
  readonly error?: string;
}

/** Writes audit records as JSON lines. */
export type AuditSink = (line: string) => void;

/**
 * The most characters of one value (a path, a reason) written to the audit log: a longer one
 * keeps its start and end around a marker with its length and SHA-256, so one request cannot
 * write megabytes (a 250 KB request wrote 1.5 MB) and the whole value can still be matched.
 */
export const maxAuditValueLength = 1024;

/** `value`, or its start and end around `…[N characters cut, sha256 <hex>]…` when too long. */
export function cutValue(value: string): string {
  if (value.length <= maxAuditValueLength) return value;
  const hash = createHash("sha256").update(value).digest("hex");
  return cutMiddle(
    value,
    maxAuditValueLength,
    maxAuditValueLength / 2,
    (removed) => `…[${removed} characters cut, sha256 ${hash}]…`,
  );
}

/**
 * Serialises a record to one line. Only the free text (`reason`, where a group's error may echo
 * a value) is scrubbed of the request's secret values: the other fields never carry one, and
 * scrubbing them (or the JSON around them) would rewrite keys, method names and paths that share
 * characters with a short secret. Every value a caller chose is cut to {@link maxAuditValueLength}.
 */
export function auditLine(record: AuditRecord, secrets: readonly string[]): string {
  return JSON.stringify({
    ...record,
    caller: cutValue(record.caller),
    resources: record.resources.map(cutValue),
    reason: cutValue(createRedactor(secrets)(record.reason)),
  });
}

/** Serialises how a call ended to one line; its error text is the caller's (already scrubbed). */
export function outcomeLine(outcome: AuditOutcome): string {
  const { error } = outcome;
  return JSON.stringify({
    ...outcome,
    caller: cutValue(outcome.caller),
    ...(error === undefined ? {} : { error: cutValue(error) }),
  });
}
