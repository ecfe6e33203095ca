import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { registerDisks } from "./commands/disks.js";
import { registerIscsi } from "./commands/iscsi.js";
import { registerServices } from "./commands/services.js";
import { registerSmb } from "./commands/smb.js";
import { registerVolumes } from "./commands/volumes.js";
import { exitCodeTable, exitCodes } from "./exit-codes.js";
import { failureOf } from "./failure.js";
import { writeLine, type CliIo } from "./io.js";
import { createGroups, type GroupsFactory } from "./node.js";
import { pendingSignalsDelivered } from "./pending-signals.js";
import { Session } from "./session.js";

/** What {@link runCli} runs with; every field defaults to the real process and node. */
export interface CliOptions {
  /** The streams; `process.stdout`, `process.stderr` and `process.stdin` by default. */
  readonly io?: CliIo;
  /** Creates the groups a command uses; PowerShell on this machine, or the simulator. */
  readonly groups?: GroupsFactory;
  /**
   * Cancels the call in flight (`ABORTED`, its PowerShell process ended); the bin wires Ctrl-C.
   * Once it fires, any failure is reported as `ABORTED`.
   */
  readonly signal?: AbortSignal;
}

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  // A getter: the stdin stream is created only when a prompt reads it.
  get stdin() {
    return process.stdin;
  },
};

/** The command tree, writing through `io`; commander's exits become thrown `CommanderError`s. */
function createProgram(io: CliIo, session: Session): Command {
  const program = new Command("csi-proxy")
    .description(
      "What this Windows node's storage looks like to csi-proxy for TypeScript.\n" +
        "Read-only, except the commands marked CHANGES THE NODE, which ask first (or take --yes).",
    )
    .version(manifest.version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help for a command")
    .option("--json", "print JSON for scripts (byte counts as decimal strings)")
    .option(
      "--verbose",
      "print each PowerShell script and its parameters to stderr (secrets redacted)",
    )
    .option(
      "--simulate",
      "run against a simulated Windows node (the demo's; needs pwsh), not this machine",
    )
    .option(
      "--state-dir <dir>",
      "with --simulate: keep the simulated node in <dir>, so later runs share it (created on first use)",
    )
    .option("-y, --yes", "confirm a changing command without asking")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`csi-proxy: USAGE: ${text.replace(/^error: /, "")}`),
    })
    .showHelpAfterError("(csi-proxy --help shows the commands and options)")
    .addHelpText("after", `\nExit codes:\n${exitCodeTable()}\n`);
  registerDisks(program, session);
  registerVolumes(program, session);
  registerSmb(program, session);
  registerIscsi(program, session);
  registerServices(program, session);
  return program;
}

// Help and version asked for are success; every other commander exit is a usage error.
function commanderExit(error: CommanderError): number {
  return error.exitCode === 0 ? exitCodes.OK : exitCodes.USAGE;
}

/**
 * Runs `csi-proxy` with `argv` (the arguments after the program name) and resolves with the exit
 * code; it never calls `process.exit`, so it runs in-process under test.
 *
 * @example
 * ```ts
 * import { runCli } from "@csi-proxy/cli";
 *
 * process.exitCode = await runCli(["disks", "list", "--json"]);
 * ```
 */
export async function runCli(argv: readonly string[], options: CliOptions = {}): Promise<number> {
  const io = options.io ?? processIo;
  const session = new Session(io, options.groups ?? createGroups, options.signal);
  try {
    await createProgram(io, session).parseAsync([...argv], { from: "user" });
    return exitCodes.OK;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error);
    // A Ctrl-C that ended a child first may still wait in the event loop: let it land, so the
    // failure it caused counts as the cancellation.
    if (options.signal !== undefined) await pendingSignalsDelivered();
    const failure = failureOf(error, options.signal);
    writeLine(io.stderr, failure.line);
    return failure.exitCode;
  } finally {
    await session.close();
  }
}
