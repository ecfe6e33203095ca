import type { Call, Outcome } from "./call.js";
import type { ResolvedConfig } from "./config.js";
import { exitFailure, killTree, launchStreaming } from "./launch.js";
import {
  decodeBody,
  FrameReader,
  hostLine,
  initLine,
  newTag,
  requestLine,
  type ResponseBody,
} from "./protocol.js";

const maxCapture = 64 * 1024;

type Subprocess = ReturnType<typeof launchStreaming>;

/** One long-lived PowerShell process that runs one call at a time. */
export class SessionWorker {
  private readonly subprocess: Subprocess;
  private readonly tag = newTag();
  private readonly knownScripts = new Set<string>();
  private current: { call: Call; requestId: number } | undefined;
  private startFailure: Outcome | undefined;
  private nextRequestId = 1;
  private stderr = "";
  private noise = "";
  private exited = false;
  private retired = false;
  private killed = false;
  private ready = false;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Resolves once the process has exited, whatever the reason. */
  readonly exit: Promise<void>;

  constructor(
    private readonly config: ResolvedConfig,
    /** The executable's file, as `startableFile` found it. */
    file: string,
    private readonly onIdle: (worker: SessionWorker) => void,
    private readonly onExit: (worker: SessionWorker) => void,
    /** Asked when the idle timer fires: whether the pool can spare this process. */
    private readonly maySpareIdle: () => boolean = () => true,
  ) {
    this.subprocess = launchStreaming(config, file);
    const reader = new FrameReader(
      this.tag,
      (id, body) => this.onFrame(id, body),
      (line) => this.onNoise(line),
    );
    this.subprocess.stdout.setEncoding("utf8");
    this.subprocess.stdout.on("data", (chunk: string) => reader.push(chunk));
    this.subprocess.stderr.setEncoding("utf8");
    this.subprocess.stderr.on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-maxCapture);
    });
    // A write after the process died is reported through the exit path below.
    this.subprocess.stdin.on("error", () => undefined);
    this.exit = this.subprocess.then((result) => this.onProcessExit(result));
    this.subprocess.stdin.write(hostLine + initLine(this.tag, config.depth, config.modules));
  }

  get isAlive(): boolean {
    return !this.exited && !this.retired;
  }

  get isBusy(): boolean {
    return this.current !== undefined;
  }

  /**
   * Whether a replacement may be started for it: it started fine once, or we ended it (a
   * cancelled call). A process that dies on its own before starting is not retried in a loop.
   */
  get isReplaceable(): boolean {
    return this.ready || this.killed;
  }

  get pid(): number | undefined {
    return this.subprocess.pid;
  }

  dispatch(call: Call): void {
    clearTimeout(this.idleTimer);
    const requestId = this.nextRequestId++;
    this.current = { call, requestId };
    call.markRunning();
    this.stderr = "";
    this.noise = "";
    this.setRef(true);
    call.onCancel(() => {
      if (this.current?.call === call) this.kill();
    });
    const includeText = !this.knownScripts.has(call.script.hash);
    this.knownScripts.add(call.script.hash);
    this.subprocess.stdin.write(requestLine(requestId, call.script, call.params.wire, includeText));
  }

  /** Ends the process politely (stdin EOF ends the host loop), killing it if it lingers. */
  async shutdown(graceMs = 2000): Promise<void> {
    clearTimeout(this.idleTimer);
    if (this.exited) return this.exit;
    // Leave the pool before closing stdin, so no call can be handed to a process that is ending.
    this.retire();
    this.subprocess.stdin.end();
    const timer = setTimeout(() => this.kill(), graceMs);
    await this.exit;
    clearTimeout(timer);
  }

  /**
   * Kills the process tree and leaves the pool at once: a grandchild holding the pipes open
   * could delay the exit event, and the pool must not wait for it to replace this process.
   */
  kill(): void {
    if (this.exited) return;
    this.killed = true;
    killTree(this.subprocess);
    this.retire();
  }

  private retire(): void {
    if (this.retired) return;
    this.retired = true;
    this.onExit(this);
  }

  private onFrame(id: string, body: string): void {
    let decoded: ResponseBody;
    try {
      decoded = decodeBody(body);
    } catch (error) {
      this.failCurrent({
        kind: "failure",
        code: "PARSE_FAILED",
        message: `PowerShell sent an unreadable response: ${(error as Error).message}`,
        cause: error,
        ...this.io(),
      });
      return;
    }
    if (id === "0") {
      if (decoded.ok) {
        this.ready = true;
        this.current?.call.markProcessReady();
        // A process started ahead of demand (warm) joins the idle list once it can take calls.
        if (this.current === undefined && this.isAlive) this.becomeIdle();
      } else {
        this.startFailure = {
          kind: "failure",
          code: "COMMAND_FAILED",
          message: `PowerShell could not start: ${decoded.error.message}`,
          record: decoded.error,
        };
      }
      return;
    }
    const current = this.current;
    if (current === undefined || id !== String(current.requestId)) {
      this.failCurrent({
        kind: "failure",
        code: "PARSE_FAILED",
        message: `PowerShell answered request ${id}, which is not the one in flight.`,
        ...this.io(),
      });
      return;
    }
    this.current = undefined;
    current.call.complete({ kind: "response", body: decoded, ...this.io() });
    this.becomeIdle();
  }

  private onNoise(line: string): void {
    this.noise = `${this.noise}${line}\n`.slice(-maxCapture);
  }

  /** The channel can no longer be trusted: fail the call in flight and replace the process. */
  private failCurrent(outcome: Outcome): void {
    const current = this.current;
    this.current = undefined;
    current?.call.complete(outcome);
    this.kill();
  }

  private onProcessExit(result: Awaited<Subprocess>): void {
    this.exited = true;
    clearTimeout(this.idleTimer);
    const current = this.current;
    this.current = undefined;
    if (current !== undefined) {
      const outcome =
        this.startFailure ??
        exitFailure(this.config, result, { ...this.io(), scriptName: current.call.script.name });
      current.call.complete({ ...outcome, ...this.io() });
    }
    this.retire();
  }

  private becomeIdle(): void {
    this.setRef(false);
    this.idleTimer = setTimeout(() => {
      if (this.maySpareIdle()) void this.shutdown();
    }, this.config.idleTimeoutMs);
    this.idleTimer.unref();
    this.onIdle(this);
  }

  /** An idle process must not keep the Node event loop alive. */
  private setRef(ref: boolean): void {
    const handles = [
      this.subprocess,
      this.subprocess.stdin,
      this.subprocess.stdout,
      this.subprocess.stderr,
    ] as { ref?: () => void; unref?: () => void }[];
    for (const handle of handles) {
      if (ref) handle.ref?.();
      else handle.unref?.();
    }
  }

  private io(): { stderr: string; stdout: string } {
    return { stderr: this.stderr, stdout: this.noise };
  }
}
