// Per-call overhead of a trivial script: spawn mode, session pools of 1 and 4, node-powershell.
import { createPowerShell, ps, type PowerShell as ExecShell } from "@csi-proxy/exec";
import { PowerShell as NodePowerShell } from "node-powershell";
import { floorBudget, measureFloor } from "./floor.js";
import { measureCalls, type Budget, type Row } from "./measure.js";

/** The trivial script's text, the same in every row. */
export const trivialText = "param([string]$Name) $Name";
/** The trivial script every per-call and scaling row runs. */
export const trivial = ps("bench.trivial")`param([string]$Name) $Name`;

const spawnBudget: Budget = { timeMs: 0, iterations: 10, warmupIterations: 1 };
// A second of warm-up: .NET promotes a new process's hot code in the background for about that
// long, and a pool process lives far longer; every persistent row gets the same.
const sessionBudget: Budget = floorBudget;
const peerBudget: Budget = floorBudget;

/** Starts every process of a session pool before measuring, so the rows show warm calls. */
export async function warmPool(shell: ExecShell, poolSize: number): Promise<void> {
  await Promise.all(Array.from({ length: poolSize }, () => shell.run(trivial, { Name: "warm" })));
}

async function execRow(name: string, shell: ExecShell, budget: Budget): Promise<Row> {
  try {
    return await measureCalls(name, () => shell.run(trivial, { Name: "x" }), budget);
  } finally {
    await shell.close();
  }
}

/**
 * node-powershell feeds text to `pwsh -Command -`, so the same script runs as a script block.
 * TERM=dumb: otherwise pwsh's console writes ESC[?1h after the closing delimiter in the same
 * chunk, and child-shell 5.0.0, which looks for that delimiter only at the chunk's end, waits
 * forever (about one call in a hundred here).
 */
async function nodePowerShellRow(pwsh: string): Promise<Row> {
  const shell = new NodePowerShell({
    executable: pwsh,
    executableOptions: { "-NoProfile": true, "-NonInteractive": true },
    spawnOptions: { env: { ...process.env, TERM: "dumb" } },
    invocationTimeout: 30_000,
  });
  const command = `& { ${trivialText} } -Name 'x'`;
  try {
    const first = await shell.invoke(command);
    if (first.raw.trim() !== "x")
      throw new Error(`node-powershell returned ${JSON.stringify(first.raw)}`);
    return await measureCalls(
      "node-powershell 5.0.1 (one persistent pwsh)",
      () => shell.invoke(command),
      peerBudget,
    );
  } finally {
    await shell.dispose();
  }
}

/** The overhead rows, and why node-powershell has none if it could not run here. */
export interface Overhead {
  readonly rows: Row[];
  readonly peerError: string | undefined;
}

/** The overhead rows, in report order: spawn, session pool 1, session pool 4, the floor, node-powershell. */
export async function measureOverhead(pwsh: string): Promise<Overhead> {
  const spawn = createPowerShell({ executable: pwsh, mode: "spawn" });
  const rows = [await execRow("spawn (process per call)", spawn, spawnBudget)];
  for (const poolSize of [1, 4]) {
    const shell = createPowerShell({ executable: pwsh, mode: "session", poolSize });
    await warmPool(shell, poolSize);
    rows.push(await execRow(`session, pool ${poolSize}`, shell, sessionBudget));
  }
  rows.push(await measureFloor(pwsh));
  try {
    rows.push(await nodePowerShellRow(pwsh));
  } catch (error) {
    return { rows, peerError: error instanceof Error ? error.message : String(error) };
  }
  return { rows, peerError: undefined };
}
