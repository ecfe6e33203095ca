import { createRedactor } from "@csi-proxy/exec";

/** One access decision, as written to the audit log. */
export interface AuditRecord {
  /** When it was decided (ISO 8601). */
  readonly time: string;
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
  /** What the request names (paths, disks, targets, ...); never a secret. */
  readonly resources: readonly string[];
  /** `allow`, `deny`, or `error` when the request was refused before a decision (bad input). */
  readonly decision: "allow" | "deny" | "error";
  /** The rules that applied to the caller. */
  readonly rules: readonly string[];
  /** Why. */
  readonly reason: string;
}

/** Writes audit records as JSON lines. */
export type AuditSink = (line: string) => void;

/**
 * Serialises a record to one line. Only the free text (`reason`, where a group's error may echo
 * a value) is scrubbed of the request's secret values: the other fields never carry one, and
 * scrubbing them (or the JSON around them) would rewrite keys, method names and paths that share
 * characters with a short secret.
 */
export function auditLine(record: AuditRecord, secrets: readonly string[]): string {
  return JSON.stringify({ ...record, reason: createRedactor(secrets)(record.reason) });
}
