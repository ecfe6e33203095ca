// The floor of a call to a persistent PowerShell: one pwsh reading a line, running a cached
// script block with one bound parameter and writing ConvertTo-Json -Compress (issue #18 item 2).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { dotnetRuntimeDefaults } from "@csi-proxy/exec";
import { measureCalls, type Budget, type Row } from "./measure.js";

/** The floor row's name, which the report's target looks up. */
export const floorName = "floor: persistent pwsh, cached script block, one parameter, JSON";

// Constant text: the value travels as a line on stdin, never inside the script.
const loop = [
  "$sb = [scriptblock]::Create('param([string]$Name) $Name')",
  "$in = [Console]::In",
  "$out = [Console]::Out",
  "while ($true) {",
  "  $line = $in.ReadLine()",
  "  if ($null -eq $line) { break }",
  "  $out.WriteLine((ConvertTo-Json -InputObject (& $sb -Name $line) -Compress))",
  "  $out.Flush()",
  "}",
].join("\n");

/** The budget of every persistent-process row (the floor, sessions, node-powershell). */
export const floorBudget: Budget = {
  timeMs: 3_000,
  iterations: 300,
  warmupIterations: 20,
  warmupTimeMs: 1_000,
};

/** A running floor process: one call at a time, then close. */
export interface Floor {
  readonly call: () => Promise<void>;
  readonly close: () => Promise<void>;
}

/**
 * Starts the floor with `env` added to the environment; by default the .NET settings exec gives
 * its own processes, so that the rows compare the transports alone.
 */
export async function startFloor(
  pwsh: string,
  env: Readonly<Record<string, string>> = dotnetRuntimeDefaults,
): Promise<Floor> {
  const child = spawn(pwsh, ["-NoLogo", "-NoProfile", "-NonInteractive", "-Command", loop], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const lines = createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  const call = () =>
    new Promise<void>((resolve, reject) => {
      waiting.push((line) =>
        line === '"x"' ? resolve() : reject(new Error(`floor said ${line}`)),
      );
      child.stdin.write("x\n");
    });
  const close = async () => {
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
  };
  try {
    await call();
  } catch (error) {
    await close();
    throw error;
  }
  return { call, close };
}

/** Measures one call of the floor, back to back, in the same way as the exec rows. */
export async function measureFloor(pwsh: string): Promise<Row> {
  const floor = await startFloor(pwsh);
  try {
    return await measureCalls(floorName, floor.call, floorBudget);
  } finally {
    await floor.close();
  }
}
