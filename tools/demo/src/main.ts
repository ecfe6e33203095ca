// `pnpm demo`: what the exec core does for a driver, on real PowerShell. The full CSI node
// lifecycle on the simulated Windows host arrives with the API groups.
import { createPowerShell, isCsiProxyError, ps } from "@csi-proxy/exec";
import { provisionPwsh } from "@csi-proxy/pwsh";
import { parseDemoArgs } from "./args.js";
import { StepRunner } from "./steps.js";

const version = ps("demo.version")`$PSVersionTable.PSVersion.ToString()`;
const echo = ps(
  "demo.echo",
)`param([string]$Value) [pscustomobject]@{ value = $Value; length = $Value.Length }`;
const login = ps(
  "demo.login",
)`param([string]$User, [string]$Password) throw ('access denied for ' + $User + ' with ' + $Password)`;
const missing = ps("demo.missing")`Get-Item -LiteralPath '/no/such/path'`;

const args = parseDemoArgs(process.argv.slice(2));
const pwsh = provisionPwsh({ quiet: true });
if (pwsh === undefined) process.exit(1);
const shell = createPowerShell({ executable: pwsh, mode: args.mode });
const runner = new StepRunner(args.json, args.verbose);
if (!args.json) console.log(`csi-proxy demo: exec core, ${args.mode} mode, ${pwsh}`);

await runner.step(
  "start PowerShell and read its version",
  async () => `PowerShell ${await shell.run<string>(version)}`,
);
await runner.step("a warm call", async () => `PowerShell ${await shell.run<string>(version)}`);
const hostile = `'; Remove-Item -Recurse C:\\ ; "$(whoami)" \u2018x\u2019`;
await runner.step("a hostile value travels as data", async () => {
  const result = await shell.run<{ value: string; length: number }>(echo, { Value: hostile });
  if (result.value !== hostile) throw new Error("value changed in transit");
  return `received byte-exact (${result.length} chars), nothing executed`;
});
await runner.step("a failing cmdlet becomes a typed error", async () => {
  try {
    await shell.run(missing);
    return "unexpectedly succeeded";
  } catch (error) {
    if (!isCsiProxyError(error)) throw error;
    return `${error.code}: ${error.message}`;
  }
});
await runner.step("secrets never reach messages", async () => {
  try {
    await shell.run(login, { User: "admin", Password: "s3cr3t!" });
    return "unexpectedly succeeded";
  } catch (error) {
    if (!isCsiProxyError(error)) throw error;
    return error.message;
  }
});
await shell.close();
if (args.json) console.log(JSON.stringify({ mode: args.mode, steps: runner.results }, null, 2));
process.exitCode = runner.results.every((r) => r.ok) ? 0 : 1;
