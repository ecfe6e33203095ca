import { PassThrough } from "node:stream";
import { runCli, type CliGroups, type CliIo, type GroupsFactory } from "../src/index.js";

/** What one in-process run printed and how it ended. */
export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** How the streams of an in-process run look. */
export interface RunSetup {
  readonly groups?: GroupsFactory;
  /** A terminal on stdin (prompts) and stderr (spinner); default: neither, as under CI. */
  readonly tty?: boolean;
  /** What the operator types at a prompt. */
  readonly input?: string;
  /** Stands for Ctrl-C. */
  readonly signal?: AbortSignal;
}

// A stream that says it is a terminal, with the cursor methods a spinner calls as no-ops.
function output(tty: boolean): PassThrough & { text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  return Object.assign(stream, {
    isTTY: tty,
    columns: 120,
    cursorTo: () => true,
    moveCursor: () => true,
    clearLine: () => true,
    text: () => Buffer.concat(chunks).toString("utf8"),
  });
}

/** Runs the program in-process with injected streams and groups. */
export async function runIn(argv: readonly string[], setup: RunSetup = {}): Promise<Ran> {
  const tty = setup.tty === true;
  const stdout = output(false);
  const stderr = output(tty);
  const stdin = Object.assign(new PassThrough(), { isTTY: tty });
  if (setup.input !== undefined) stdin.end(setup.input);
  const io: CliIo = { stdout, stderr, stdin };
  const code = await runCli(argv, {
    io,
    groups: setup.groups ?? (() => Promise.reject(new Error("this run must not reach the node"))),
    ...(setup.signal === undefined ? {} : { signal: setup.signal }),
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** A factory handing out fixed groups that the test closes itself. */
export function fixedGroups(groups: Omit<CliGroups, "close">): GroupsFactory & { calls: number } {
  const factory = Object.assign(
    () => {
      factory.calls++;
      return Promise.resolve({ ...groups, close: () => Promise.resolve() });
    },
    { calls: 0 },
  );
  return factory;
}
