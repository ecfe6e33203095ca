import { publishEnd, publishError, publishStart, type ExecStartEvent } from "./diagnostics.js";
import type { CsiProxyErrorCode } from "./errors.js";
import { missingCommandMessage } from "./missing-module.js";
import type { EncodedParams } from "./params.js";
import { PowerShellError, type PowerShellErrorRecord } from "./powershell-error.js";
import type { ResponseBody } from "./protocol.js";
import { createRedactor, redactDeep, type Redactor } from "./redact.js";
import type { Script } from "./script.js";
import type { ExecMode } from "./types.js";

/** How a mode ended a call: a response frame, or a failure it observed. */
export type Outcome =
  | { kind: "response"; body: ResponseBody; stderr: string; stdout: string }
  | {
      kind: "failure";
      code: CsiProxyErrorCode;
      message: string;
      exitCode?: number | undefined;
      signal?: string | undefined;
      stderr?: string;
      stdout?: string;
      record?: PowerShellErrorRecord | undefined;
      cause?: unknown;
    };

type CancelCode = "TIMEOUT" | "ABORTED";

let nextCallId = 1;

/** One `run()` call: owns its deadline, abort wiring, redaction and diagnostics. */
export class Call {
  readonly id = nextCallId++;
  readonly promise: Promise<unknown>;
  readonly redact: Redactor;
  private readonly started = performance.now();
  private readonly event: ExecStartEvent;
  private readonly cancelHooks: ((code: CancelCode) => void)[] = [];
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private resolve!: (value: unknown) => void;
  private reject!: (error: unknown) => void;
  private readonly onAbort = (): void => this.cancel("ABORTED");

  constructor(
    readonly script: Script,
    readonly params: EncodedParams,
    readonly mode: ExecMode,
    private readonly signal: AbortSignal | undefined,
    /** The caller's deadline, from `run()`: queue time counts, as a caller's budget should. */
    private readonly deadlineMs: number | undefined,
    /** Without a caller deadline, the shell's limit on one script, from when it starts running. */
    private readonly runLimitMs: number,
    /** Whose turn in the pool's queue it takes (`RunOptions.fairnessKey`). */
    readonly fairnessKey?: string,
  ) {
    this.redact = createRedactor(params.secretValues);
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.event = { callId: this.id, script: script.name, mode, params: params.redacted };
    publishStart(this.event);
    if (signal?.aborted) {
      this.cancel("ABORTED");
      return;
    }
    signal?.addEventListener("abort", this.onAbort, { once: true });
    if (deadlineMs !== undefined) this.timer = setTimeout(() => this.cancel("TIMEOUT"), deadlineMs);
  }

  /** The script has been handed to a process: the shell's run limit starts now. */
  markRunning(): void {
    if (this.running || this.settled) return;
    this.running = true;
    if (this.deadlineMs === undefined) {
      this.timer = setTimeout(() => this.cancel("TIMEOUT"), this.runLimitMs);
    }
  }

  /**
   * The process it was handed to has just finished starting: the run limit starts again, so a
   * slow process start and the script are each bounded by it, not both together.
   */
  markProcessReady(): void {
    if (!this.running || this.settled || this.deadlineMs !== undefined) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.cancel("TIMEOUT"), this.runLimitMs);
  }

  get isSettled(): boolean {
    return this.settled;
  }

  /** Registers what to do (kill a process, leave a queue) if the call times out or is aborted. */
  onCancel(hook: (code: CancelCode) => void): void {
    this.cancelHooks.push(hook);
  }

  private cancel(code: CancelCode): void {
    if (this.settled) return;
    const limit = this.deadlineMs ?? this.runLimitMs;
    const where = this.running
      ? "its PowerShell process was ended"
      : "it was still waiting for a PowerShell process and never ran";
    const message =
      code === "TIMEOUT"
        ? `${this.script.name} timed out after ${limit} ms; ${where}.`
        : `${this.script.name} was aborted; ${where}.`;
    this.complete({
      kind: "failure",
      code,
      message,
      cause: code === "ABORTED" ? this.signal?.reason : undefined,
    });
    for (const hook of this.cancelHooks) hook(code);
  }

  complete(outcome: Outcome): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this.onAbort);
    const durationMs = performance.now() - this.started;
    if (outcome.kind === "response" && outcome.body.ok) {
      const { count, value } = outcome.body;
      publishEnd(this.event, durationMs, count);
      this.resolve(count === 0 ? undefined : value);
      return;
    }
    const error = this.toError(outcome, durationMs);
    publishError(this.event, durationMs, error);
    this.reject(error);
  }

  private toError(outcome: Outcome, durationMs: number): PowerShellError {
    const r = this.redact;
    const common = {
      scriptName: this.script.name,
      mode: this.mode,
      durationMs,
      stderr: r(outcome.stderr ?? "").slice(-64 * 1024),
      stdout: r(outcome.stdout ?? "").slice(-16 * 1024),
    };
    if (outcome.kind === "response") {
      if (outcome.body.ok) throw new Error("unreachable: successful response");
      const record = redactDeep(outcome.body.error, r);
      // A host without the module (Storage, SmbShare, iSCSI) cannot do this at all.
      const missing = missingCommandMessage(record);
      const code =
        missing !== undefined
          ? "UNSUPPORTED"
          : record.fullyQualifiedErrorId === "CsiProxy.UnknownParameter"
            ? "INVALID_ARGUMENT"
            : "COMMAND_FAILED";
      return new PowerShellError(`${this.script.name} failed: ${missing ?? record.message}`, {
        ...common,
        code,
        record,
      });
    }
    const record = outcome.record === undefined ? undefined : redactDeep(outcome.record, r);
    return new PowerShellError(r(outcome.message), {
      ...common,
      code: outcome.code,
      record,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      cause: outcome.cause,
    });
  }
}
