import { randomUUID } from "node:crypto";

/** One call as the guard, the audit log and the server's log see it. */
export class CallTrace {
  /** The id its audit lines and its log line share. */
  readonly id: string = randomUUID();
  readonly #startedAt = performance.now();
  /** Who called, once the guard knows. */
  caller = "unauthenticated";
  /** Whether the audit log has a line for it. */
  audited = false;
  /** Whether that line ended it (a refusal, with its status): no outcome line follows. */
  closed = false;

  /** Milliseconds since the call arrived, to the microsecond. */
  elapsedMs(): number {
    return Math.round((performance.now() - this.#startedAt) * 1000) / 1000;
  }
}
