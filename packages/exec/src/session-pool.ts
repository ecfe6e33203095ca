import type { Call } from "./call.js";
import type { ResolvedConfig } from "./config.js";
import { executableNotFound, startableFile } from "./launch.js";
import { SessionWorker } from "./session-worker.js";

const missing = Symbol("executable not found");

/** How busy a pool of PowerShell processes is at one moment; reading it changes nothing. */
export interface PowerShellStats {
  /** Processes running a call. */
  readonly busy: number;
  /** Live processes waiting for a call (a warm one still starting counts here). */
  readonly idle: number;
  /** Calls waiting for a free process. */
  readonly queued: number;
}

/** Up to `poolSize` long-lived PowerShell processes serving one FIFO queue of calls. */
export class SessionPool {
  private readonly queue: Call[] = [];
  private readonly workers = new Set<SessionWorker>();
  private readonly idle: SessionWorker[] = [];
  private closed = false;

  constructor(private readonly config: ResolvedConfig) {}

  submit(call: Call): void {
    this.queue.push(call);
    call.onCancel(() => {
      const index = this.queue.indexOf(call);
      if (index !== -1) this.queue.splice(index, 1);
    });
    this.pump();
  }

  /** Process ids of the running PowerShell processes (for diagnostics and leak checks). */
  get pids(): number[] {
    return [...this.workers].flatMap((worker) => (worker.pid === undefined ? [] : [worker.pid]));
  }

  /** How many processes run a call, wait for one, and how many calls wait for a process. */
  get stats(): PowerShellStats {
    let busy = 0;
    let idle = 0;
    for (const worker of this.workers) {
      if (!worker.isAlive) continue;
      if (worker.isBusy) busy += 1;
      else idle += 1;
    }
    const queued = this.queue.filter((call) => !call.isSettled).length;
    return { busy, idle, queued };
  }

  /** Ends idle processes politely and kills busy ones (their calls were already aborted). */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    const workers = [...this.workers];
    for (const worker of workers) if (worker.isBusy) worker.kill();
    await Promise.all(workers.map((worker) => (worker.isBusy ? worker.exit : worker.shutdown())));
  }

  private pump(): void {
    for (;;) {
      // Calls that timed out or were aborted while queued are dropped before a process is sought.
      while (this.queue[0]?.isSettled) this.queue.shift();
      const call = this.queue[0];
      if (call === undefined || this.closed) return;
      const worker = this.takeIdle() ?? this.spawn();
      if (worker === undefined) return;
      this.queue.shift();
      if (worker === missing) call.complete(executableNotFound(this.config));
      else worker.dispatch(call);
    }
  }

  private takeIdle(): SessionWorker | undefined {
    let worker = this.idle.pop();
    while (worker !== undefined && !worker.isAlive) worker = this.idle.pop();
    return worker;
  }

  /** A new process, none when the pool is full, or `missing` when the executable is not there. */
  private spawn(): SessionWorker | typeof missing | undefined {
    if (this.workers.size >= this.config.poolSize) return undefined;
    const file = startableFile(this.config);
    if (file === undefined) return missing;
    const worker = new SessionWorker(
      this.config,
      file,
      (w) => {
        this.idle.push(w);
        this.pump();
      },
      (w) => {
        this.workers.delete(w);
        const index = this.idle.indexOf(w);
        if (index !== -1) this.idle.splice(index, 1);
        this.pump();
        // Keep the warm floor: a process ended by a cancelled call is replaced at once.
        if (!this.closed && w.isReplaceable && this.workers.size < this.config.keepWarm) {
          this.spawn();
        }
      },
      () => this.workers.size > this.config.keepWarm,
    );
    this.workers.add(worker);
    return worker;
  }
}
