#!/usr/bin/env node
// Installs PowerShell 7 as a .NET tool into <repo>/.tools/pwsh, so tests, the demo and CI run
// real PowerShell without relying on anything installed by hand. The install itself is
// @csi-proxy/winsim's (findPwsh uses the same code), imported by relative path because this runs
// before `pnpm install` and before any build. Safe to call repeatedly and from several processes.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  hasDotnet,
  isProvisioned,
  provisionPwshInto,
  pwshPathIn,
  pwshVersion,
} from "../../packages/winsim/provision.mjs";

export { pwshVersion };

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
// turbo hashes <toolDir>/VERSION, so a PowerShell upgrade re-runs every suite.
const toolDir = join(repoRoot, ".tools", "pwsh");

export function provisionedPwshPath() {
  return pwshPathIn(toolDir);
}

export function provisionPwsh({ quiet = false } = {}) {
  if (isProvisioned(toolDir)) return provisionedPwshPath();
  if (!hasDotnet()) {
    console.log(
      `pwsh ${pwshVersion} is missing and cannot be provisioned: install the .NET SDK (8 or newer, e.g. 'apt-get install dotnet-sdk-8.0'), then run 'pnpm setup:pwsh'.`,
    );
    return undefined;
  }
  return provisionPwshInto(toolDir, { quiet });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const path = provisionPwsh();
  if (path) console.log(`pwsh ${pwshVersion}: ${path}`);
  else if (process.env.CSI_PROXY_REQUIRE_PWSH === "1") process.exit(1);
}
