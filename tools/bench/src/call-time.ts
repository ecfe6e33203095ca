// Where the time of a warm call goes: the floor and a session of one process, each with .NET's
// default settings and with exec's (dynamic PGO off), CPU split by PowerShell thread.
import { createPowerShell, dotnetRuntimeDefaults } from "@csi-proxy/exec";
import { floorBudget, startFloor } from "./floor.js";
import { trivial } from "./overhead.js";
import { measureCalls, type Row } from "./measure.js";
import { sampleThreads, threadsPerCall, type ThreadCpu } from "./threads.js";

/** A row of the section: latency and CPU per call, PowerShell's CPU by thread. */
export interface CallTimeRow extends Row {
  /** PowerShell CPU seconds per call, by thread. */
  readonly threads: ThreadCpu;
}

// .NET's own default, named so that a machine-wide setting cannot change what the row means.
const dotnetDefaults = { DOTNET_TieredPGO: "1" };

async function measured(name: string, call: () => Promise<unknown>): Promise<CallTimeRow> {
  let calls = 0;
  const before = sampleThreads();
  const row = await measureCalls(
    name,
    () => {
      calls += 1;
      return call();
    },
    floorBudget,
  );
  return { ...row, threads: threadsPerCall(before, sampleThreads(), calls) };
}

async function floorRow(pwsh: string, name: string, env: Readonly<Record<string, string>>) {
  const floor = await startFloor(pwsh, env);
  try {
    return await measured(name, floor.call);
  } finally {
    await floor.close();
  }
}

async function sessionRow(pwsh: string, name: string, env: Record<string, string>) {
  const shell = createPowerShell({ executable: pwsh, mode: "session", poolSize: 1, env });
  try {
    await shell.run(trivial, { Name: "warm" });
    return await measured(name, () => shell.run(trivial, { Name: "x" }));
  } finally {
    await shell.close();
  }
}

/** The four rows, measured one after the other with only one PowerShell process alive. */
export async function measureCallTime(pwsh: string): Promise<CallTimeRow[]> {
  const settings = Object.entries(dotnetRuntimeDefaults)
    .map(([key, value]) => `${key}=${value}`)
    .join(" ");
  return [
    await floorRow(pwsh, "floor, .NET defaults", dotnetDefaults),
    await floorRow(pwsh, `floor, ${settings} (exec's settings)`, dotnetRuntimeDefaults),
    await sessionRow(pwsh, "session pool 1, .NET defaults", dotnetDefaults),
    await sessionRow(pwsh, `session pool 1, ${settings} (as shipped)`, {}),
  ];
}
