import type { Command } from "commander";
import { confirmChange } from "./confirm.js";
import { writeLine, type CliIo } from "./io.js";
import type { CliGroups, GroupsFactory } from "./node.js";
import { UsageError } from "./failure.js";
import { createProgress } from "./progress.js";
import { renderJson } from "./render.js";
import { simulatedPath } from "./simulated-path.js";
import { traceScripts } from "./verbose.js";

/** The options every command accepts (commander parses them anywhere on the line). */
export interface GlobalOptions {
  readonly json?: boolean;
  readonly verbose?: boolean;
  readonly simulate?: boolean;
  readonly stateDir?: string;
  readonly yes?: boolean;
}

/** What a command's action works with. */
export interface Run {
  /** `--json`: print the result as JSON, not as a table. */
  readonly json: boolean;
  /**
   * Runs `work` on the node's groups under a spinner saying `label` (on a terminal, not with
   * `--json`); the groups are created first, under their own step when the node is simulated.
   */
  withNode<T>(label: string, work: (groups: CliGroups) => Promise<T>): Promise<T>;
  /** A path on the node from the command line, refused before anything runs if it cannot be one. */
  nodePath(path: string): string;
  /** Prints the result: `data` as JSON with `--json`, else the text `human` renders. */
  output(data: unknown, human: () => string): void;
  /** Prints `plan` and asks (or takes `--yes`); throws when the change must not go ahead. */
  confirm(plan: readonly string[]): Promise<void>;
}

/**
 * Every method of `group` (but `close`) called with `{ signal }` when the caller passed no
 * options, so one Ctrl-C cancels whatever call is in flight, its lock wait and script included.
 */
function withSignal<G extends object>(group: G, signal: AbortSignal): G {
  return new Proxy(group, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function" || property === "close") return value;
      const method = value as (request: unknown, options: unknown) => unknown;
      return (request: unknown, options?: unknown) =>
        method.call(target, request, options ?? { signal });
    },
  });
}

function signalled(groups: CliGroups, signal: AbortSignal | undefined): CliGroups {
  if (signal === undefined) return groups;
  // A factory may hand out only the groups a command needs (tests do).
  const wrap = <G>(group: G): G =>
    typeof group === "object" && group !== null ? withSignal(group, signal) : group;
  return {
    disk: wrap(groups.disk),
    volume: wrap(groups.volume),
    smb: wrap(groups.smb),
    iscsi: wrap(groups.iscsi),
    system: wrap(groups.system),
    close: () => groups.close(),
  };
}

/** One invocation's state: the groups it created and the tracing it started, ended by `close`. */
export class Session {
  readonly #io: CliIo;
  readonly #factory: GroupsFactory;
  readonly #signal: AbortSignal | undefined;
  #groups: Promise<CliGroups> | undefined;
  #stopTrace: (() => void) | undefined;

  constructor(io: CliIo, factory: GroupsFactory, signal?: AbortSignal) {
    this.#io = io;
    this.#factory = factory;
    this.#signal = signal;
  }

  /** The {@link Run} of the command being acted on, from its parsed global options. */
  begin(options: GlobalOptions): Run {
    const io = this.#io;
    const json = options.json === true;
    const simulate = options.simulate === true;
    const { stateDir } = options;
    if (stateDir !== undefined && !simulate) {
      throw new UsageError("--state-dir keeps a simulated node: it needs --simulate");
    }
    if (options.verbose === true && this.#stopTrace === undefined) {
      this.#stopTrace = traceScripts(io.stderr);
    }
    const progress = createProgress(io.stderr, !json);
    const request = { simulate, stateDir, signal: this.#signal };
    const groups = async (): Promise<CliGroups> => {
      if (this.#groups === undefined) {
        const created = this.#factory(request);
        this.#groups = created;
        if (simulate) await progress("Preparing the simulated node", () => created);
      }
      const ready = await this.#groups;
      // Ctrl-C while the node was being prepared: nothing more is started.
      this.#signal?.throwIfAborted();
      return signalled(ready, this.#signal);
    };
    return {
      json,
      withNode: async (label, work) => {
        const ready = await groups();
        return progress(label, () => work(ready));
      },
      nodePath: (path) => (simulate ? simulatedPath(path, stateDir) : path),
      output: (data, human) => writeLine(io.stdout, json ? renderJson(data) : human()),
      confirm: (plan) => confirmChange(io, plan, options.yes === true),
    };
  }

  /** Ends the groups (if any were created) and the tracing. */
  async close(): Promise<void> {
    const groups = this.#groups;
    this.#groups = undefined;
    try {
      if (groups !== undefined) await (await groups.catch(() => undefined))?.close();
    } finally {
      this.#stopTrace?.();
      this.#stopTrace = undefined;
    }
  }
}

/**
 * A commander action that runs `work` with the {@link Run} of its command, then the positional
 * arguments and the command's own options, as commander passes them (the command itself dropped).
 */
export function act(
  session: Session,
  // `never[]`: each action declares the types its command's argument parsers produce.
  work: (run: Run, ...args: never[]) => Promise<void>,
): (...received: unknown[]) => Promise<void> {
  return async (...received) => {
    const command = received.at(-1) as Command;
    const args = received.slice(0, -1) as never[];
    await work(session.begin(command.optsWithGlobals<GlobalOptions>()), ...args);
  };
}
