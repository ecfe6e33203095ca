import type { Readable, Writable } from "node:stream";

/** Where the program writes: `process.stdout`/`process.stderr`, or a test's stream. */
export type CliOutput = Writable & {
  /** True on a terminal: tables, prompts and the progress line depend on it. */
  readonly isTTY?: boolean | undefined;
};

/** Where the program reads the confirmation answer: `process.stdin`, or a test's stream. */
export type CliInput = Readable & {
  /** True on a terminal: only then is a changing command confirmed by a prompt. */
  readonly isTTY?: boolean | undefined;
};

/** The program's streams, injected so it runs in-process under test exactly as from the shell. */
export interface CliIo {
  /** Where results go: tables, or JSON with `--json`. */
  readonly stdout: CliOutput;
  /** Where progress, prompts and errors go. */
  readonly stderr: CliOutput;
  /** Where the confirmation prompt reads its answer. */
  readonly stdin: CliInput;
}

/** Writes one line (a trailing newline added). */
export function writeLine(out: CliOutput, text: string): void {
  out.write(`${text}\n`);
}
