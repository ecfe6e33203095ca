// The floor of a call to a persistent PowerShell: one pwsh reading a line, running a cached
// script block with one bound parameter and writing ConvertTo-Json -Compress (issue #18 item 2).
import { spawn } from "node:child_process";
import { dotnetRuntimeDefaults } from "@csi-proxy/exec";
import { createInterface } from "node:readline";
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

const budget: Budget = { timeMs: 3_000, iterations: 300, warmupIterations: 20 };

/** Measures one call of the floor, back to back, in the same way as the exec rows. */
export async function measureFloor(pwsh: string): Promise<Row> {
  const child = spawn(pwsh, ["-NoLogo", "-NoProfile", "-NonInteractive", "-Command", loop], {
    stdio: ["pipe", "pipe", "inherit"],
    // The .NET settings exec gives its processes, so the rows compare the transports alone.
    env: { ...process.env, ...dotnetRuntimeDefaults },
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
  try {
    await call();
    return await measureCalls(floorName, call, budget);
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
  }
}
