import type { Call } from "./call.js";
import type { ResolvedConfig } from "./config.js";
import { FairQueue } from "./fair-queue.js";
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

/**
 * How many processes the calls of one fairness key may hold at once: all but one, so another
 * key's call always finds a process free or soon free (one call's time at most, not a queue's).
 */
export function fairnessCap(poolSize: number): number {
  return Math.max(1, poolSize - 1);
}

/**
 * Up to `poolSize` long-lived PowerShell processes serving the waiting calls, one lane per
 * fairness key taking turns ({@link FairQueue}); unkeyed calls share one FIFO lane.
 */
export class SessionPool {
  private readonly queue: FairQueue<Call>;
  private readonly workers = new Set<SessionWorker>();
  private readonly idle: SessionWorker[] = [];
  private closed = false;

  constructor(private readonly config: ResolvedConfig) {
    this.queue = new FairQueue(fairnessCap(config.poolSize));
  }

  submit(call: Call): void {
    this.queue.push(call);
    call.onCancel(() => this.queue.remove(call));
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
    return { busy, idle, queued: this.queue.waiting };
  }

  /** Ends idle processes politely and kills busy ones (their calls were already aborted). */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.clear();
    const workers = [...this.workers];
    for (const worker of workers) if (worker.isBusy) worker.kill();
    await Promise.all(workers.map((worker) => (worker.isBusy ? worker.exit : worker.shutdown())));
  }

  private pump(): void {
    // Calls that timed out or were aborted while queued are dropped, never run.
    while (!this.closed && this.queue.peek() !== undefined) {
      const worker = this.takeIdle() ?? this.spawn();
      const call = worker === undefined ? undefined : this.queue.take();
      if (worker === undefined || call === undefined) return;
      // Its lane's turn ends with the call, not with the process (a killed one is replaced).
      const done = () => {
        this.queue.finished(call);
        this.pump();
      };
      call.promise.then(done, done);
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
