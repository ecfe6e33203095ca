import type { AuditSink } from "./audit.js";
import { errorFields, type ServerLogger } from "./logging/logger.js";

/**
 * A call refused because its audit line could not be written: UNAVAILABLE (retry), and nothing
 * ran. Why (a full disk, a file gone read-only) is the server's log's, not the caller's.
 */
export class AuditUnavailableError extends Error {
  constructor(cause: unknown) {
    super("The call was not run: the server cannot write its audit log.", { cause });
  }
}

/**
 * Where every audit line goes through: a line that cannot be written refuses its call (the
 * audit log's promise: no call runs without its line), says so once in the server's log, counts
 * the failure, and makes the server not ready until a line can be written again.
 */
export class AuditTrail {
  #failing = false;
  #failures = 0;

  constructor(
    private readonly sink: AuditSink,
    private readonly log: ServerLogger,
  ) {}

  /** Writes one line; throws {@link AuditUnavailableError} when it cannot. */
  readonly write: AuditSink = (line) => {
    try {
      this.sink(line);
    } catch (error) {
      this.#failures += 1;
      if (!this.#failing)
        this.log.error(
          errorFields(error),
          "the audit log cannot be written: every call is refused (UNAVAILABLE) until it can",
        );
      this.#failing = true;
      throw new AuditUnavailableError(error);
    }
    if (this.#failing) this.log.info({}, "the audit log is written again: calls run again");
    this.#failing = false;
  };

  /** Whether the last line could be written. */
  get healthy(): boolean {
    return !this.#failing;
  }

  /** Lines that could not be written since the start. */
  get failures(): number {
    return this.#failures;
  }
}
