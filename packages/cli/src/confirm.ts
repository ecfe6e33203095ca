import { createInterface } from "node:readline/promises";
import { DeclinedError, UsageError } from "./failure.js";
import { writeLine, type CliIo } from "./io.js";

/**
 * Gate for every command that changes the node. Prints exactly what will change (to stderr, so
 * `--json` output stays clean), then proceeds with `--yes`, else asks on a terminal. Without a
 * terminal and without `--yes` it refuses (a usage error) and nothing is changed.
 */
export async function confirmChange(
  io: CliIo,
  plan: readonly string[],
  yes: boolean,
): Promise<void> {
  writeLine(io.stderr, "This will change the node:");
  for (const line of plan) writeLine(io.stderr, `  - ${line}`);
  if (yes) return;
  if (io.stdin.isTTY !== true) {
    throw new UsageError(
      "refusing to change the node without confirmation: pass --yes (no terminal to ask on)",
    );
  }
  if (!(await ask(io, "Proceed? [y/N] "))) throw new DeclinedError("nothing was changed");
}

// Only an explicit yes proceeds; an empty line, anything else, or a closed input is a no.
async function ask(io: CliIo, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const closed = new Promise<string>((resolve) => rl.once("close", () => resolve("")));
    const answer = await Promise.race([rl.question(question), closed]);
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}
