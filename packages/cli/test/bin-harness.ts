import { execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The built bin, as an operator runs it. */
export const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

/** What one run of the bin printed and how it ended. */
export interface Spawned {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The bin without a terminal (no stdin, as under CI), with `env` added to the environment. */
export function runBin(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Spawned> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...argv],
      { env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/** A run of the bin in a pseudo terminal: what it printed so far, keys typed, how it ended. */
export interface Terminal {
  /** Everything the terminal showed (stdout and stderr, as a terminal mixes them). */
  output(): string;
  /** Resolves once the terminal has shown `text`. */
  shown(text: string): Promise<void>;
  /** Types at the keyboard, e.g. "\x03" for Ctrl-C (the line discipline turns it into SIGINT). */
  type(keys: string): void;
  /** The bin's exit code. */
  readonly exit: Promise<number>;
}

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * The bin in a real pseudo terminal, through util-linux `script`: stdin, stdout and stderr are
 * the terminal, and Ctrl-C reaches the whole foreground process group, as at a shell.
 */
export function inTerminal(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Terminal {
  // `exec`: script runs the command through $SHELL (or /bin/sh where it is unset, as under CI),
  // and a shell left waiting would itself die of the Ctrl-C and make script report 130.
  const command = ["exec", ...[process.execPath, bin, ...argv].map(quote)].join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let text = "";
  const waiting: { text: string; resolve: () => void }[] = [];
  const onData = (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (const w of waiting.filter((w) => text.includes(w.text))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  return {
    output: () => text,
    shown: (wanted) =>
      new Promise((resolve) => {
        if (text.includes(wanted)) resolve();
        else waiting.push({ text: wanted, resolve });
      }),
    type: (keys) => child.stdin.write(keys),
    exit: new Promise((resolve) => child.on("close", (code) => resolve(code ?? -1))),
  };
}
