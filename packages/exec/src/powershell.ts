import { Call } from "./call.js";
import { checkCallOptions, type CallOptions } from "./call-options.js";
import { resolveConfig, type PowerShellOptions, type ResolvedConfig } from "./config.js";
import { CsiProxyError, invalidArgument } from "./errors.js";
import { encodeParams } from "./params.js";
import { checkRunOptions } from "./run-options.js";
import { isScript, ps, type Script } from "./script.js";
import { SessionPool, type PowerShellStats } from "./session-pool.js";
import { SpawnRunner } from "./spawn-mode.js";
import type { ExecMode, Params, RunOptions } from "./types.js";

/**
 * A bound on one request line, which both ends hold whole in memory. Not a JSON limit: 5.1 reads
 * JSON with MaxJsonLength = Int32.MaxValue (its 2 MB default was Windows PowerShell 3.0/4.0's).
 */
const maxRequestChars = 1_500_000;

/** Does nothing: running it makes a process start, import its modules and compile the transport. */
const warmUpScript = ps("exec.warmUp")`$null = $PSVersionTable`;

/** Runs constant scripts with data-only parameters. Every API group takes one of these. */
export interface PowerShell {
  /** Whether calls run in long-lived sessions or one process each. */
  readonly mode: ExecMode;
  /**
   * Runs `script` with `params` bound by name to its `param()` block and returns its output
   * decoded from JSON: `undefined` when it wrote nothing, the object when it wrote one, an
   * array when it wrote several. Write `,@(...)` in the script to always get an array.
   */
  run<T = unknown>(script: Script, params?: Params, options?: RunOptions): Promise<T>;
  /**
   * Starts processes now, so the first real call does not pay for a process start: in session
   * mode `keepWarm` processes (at least one), each ready to take a call when this resolves; in
   * spawn mode it runs one empty call, which proves the executable and modules load. Without
   * `keepWarm`, warmed processes still close after `idleTimeoutMs` of idleness.
   */
  warmUp(options?: CallOptions): Promise<void>;
  /** Ends every PowerShell process; calls still queued or running fail with `ABORTED`. */
  close(): Promise<void>;
  /**
   * How busy its processes are now, for a server's gauges: in spawn mode every call in flight is
   * a busy process and nothing queues. Optional, so a host written before it still fits.
   */
  stats?(): PowerShellStats;
}

class ProcessPowerShell implements PowerShell {
  readonly mode: ExecMode;
  private readonly pool: SessionPool | undefined;
  private readonly spawner: SpawnRunner | undefined;
  private readonly inFlight = new Set<Call>();
  private closed = false;

  constructor(private readonly config: ResolvedConfig) {
    this.mode = config.mode;
    if (config.mode === "session") this.pool = new SessionPool(config);
    else this.spawner = new SpawnRunner(config);
  }

  async run<T = unknown>(script: Script, params?: Params, options?: RunOptions): Promise<T> {
    if (!isScript(script))
      throw invalidArgument("run() takes a script defined with ps``, not a string.");
    // Every option is checked before the call is accepted, so no start event goes without an end.
    const { timeoutMs, signal, secrets, fairnessKey } = checkRunOptions(options);
    if (this.closed)
      throw new CsiProxyError("This PowerShell host is closed.", { code: "ABORTED" });
    const encoded = encodeParams(params, secrets);
    if (JSON.stringify(encoded.wire).length + script.text.length > maxRequestChars) {
      throw invalidArgument(
        `The parameters of ${script.name} are too large to send (over ${maxRequestChars} characters encoded).`,
      );
    }
    const call = new Call(
      script,
      encoded,
      this.mode,
      signal,
      timeoutMs,
      this.config.timeoutMs,
      fairnessKey,
    );
    if (!call.isSettled) {
      this.inFlight.add(call);
      if (this.pool) this.pool.submit(call);
      else this.spawner?.run(call);
    }
    try {
      return (await call.promise) as T;
    } finally {
      this.inFlight.delete(call);
    }
  }

  async warmUp(options?: CallOptions): Promise<void> {
    const { signal, timeoutMs } = checkCallOptions(options, "warmUp");
    const count = this.mode === "session" ? Math.max(1, this.config.keepWarm) : 1;
    const runOptions = {
      ...(signal === undefined ? {} : { signal }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    };
    // Concurrent calls: the pool starts one process for each while it is below poolSize.
    await Promise.all(Array.from({ length: count }, () => this.run(warmUpScript, {}, runOptions)));
  }

  stats(): PowerShellStats {
    return this.pool?.stats ?? { busy: this.inFlight.size, idle: 0, queued: 0 };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const call of [...this.inFlight]) {
      call.complete({
        kind: "failure",
        code: "ABORTED",
        message: `${call.script.name} was aborted: the PowerShell host was closed.`,
      });
    }
    await Promise.all([this.pool?.close(), this.spawner?.close()]);
  }
}

/**
 * Creates the PowerShell host every API group runs on.
 *
 * @example
 * ```ts
 * import { createPowerShell, ps } from "@csi-proxy/exec";
 *
 * const shell = createPowerShell({ mode: "session", poolSize: 2 });
 * const hello = ps("hello")`param([string]$Name) "hello $Name"`;
 * console.log(await shell.run<string>(hello, { Name: "node" }));
 * await shell.close();
 * ```
 */
export function createPowerShell(options: PowerShellOptions = {}): PowerShell {
  return powerShellOn(resolveConfig(options));
}

/** A PowerShell on a resolved configuration (not exported: tests hand it another machine's). */
export function powerShellOn(config: ResolvedConfig): PowerShell {
  return new ProcessPowerShell(config);
}
