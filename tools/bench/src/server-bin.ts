// csi-proxy-server's built bin on a simulated node, as the bench and its storm test start it.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createInterface, type Interface } from "node:readline";

const bin = createRequire(import.meta.url)
  .resolve("@csi-proxy/server/package.json")
  .replace(/package\.json$/, "dist/bin.js");

/** A started bin: its endpoints (`<group>-<version>`, `<set>/<group>-<version>`) and process. */
export interface StartedBin {
  readonly child: ChildProcess;
  readonly endpoints: Readonly<Record<string, string>>;
  readonly simulator: { readonly dir: string; readonly root: string };
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<void>;
}

/** Runs a Node script and waits for the first line it prints (its "ready"); `lines` reads the rest. */
export async function spawnReady(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  stdin: "ignore" | "pipe" = "ignore",
): Promise<{ child: ChildProcess; line: string; lines: Interface }> {
  const child = spawn(process.execPath, [script, ...args], {
    env,
    stdio: [stdin, "pipe", "inherit"],
  });
  if (child.stdout === null) throw new Error(`${script}: no stdout`);
  const lines = createInterface({ input: child.stdout });
  const line = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) =>
      reject(new Error(`${script} exited (${code}) before it was ready`)),
    );
  });
  return { child, line, lines };
}

/** Runs the bin with `--simulate`-style `args` and waits for its ready line. */
export async function startServerBin(pwsh: string, args: readonly string[]): Promise<StartedBin> {
  const { child, line } = await spawnReady(bin, args, { ...process.env, CSI_WINSIM_PWSH: pwsh });
  const ready = JSON.parse(line) as StartedBin;
  return {
    child,
    endpoints: ready.endpoints,
    simulator: ready.simulator,
    stop: () => stopChild(child),
  };
}

/** SIGTERM, and wait for the exit (at once if it is gone already). */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
