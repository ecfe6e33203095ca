#!/usr/bin/env node
// `pnpm test:win32`: the server's Win32 suite (packages/server/test-wine) in Windows Node under
// Wine, and the Windows executable (pnpm package:windows) it builds first. Without Wine it prints one line and skips, unless CSI_PROXY_REQUIRE_WINE=1 (CI), where a
// missing Wine fails. Afterwards every process left in the suite's own prefix is ended.
import { execFileSync, spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findOnPath } from "../../packages/winsim/provision.mjs";
import { findWine, provisionKoffiWin32, provisionWine, wineEnv } from "./provision.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const required = process.env.CSI_PROXY_REQUIRE_WINE === "1";

if (findWine() === undefined) {
  console.log(
    `test:win32: Wine is not installed; install it ('apt-get install wine64') to run the Win32 suite${required ? " (required: CSI_PROXY_REQUIRE_WINE=1)" : "; skipped"}.`,
  );
  process.exit(required ? 1 : 0);
}

execFileSync(
  "pnpm",
  ["exec", "turbo", "run", "build", "--filter=@csi-proxy/server...", "--output-logs=errors-only"],
  {
    cwd: repoRoot,
    stdio: "inherit",
  },
);
const setup = provisionWine();
// The executable (pnpm package:windows) is built here too: the suite runs it as it runs bin.js.
execFileSync("node", [join(repoRoot, "tools", "windows-exe", "package.mjs"), "--no-build"], {
  cwd: repoRoot,
  stdio: "inherit",
});
const env = {
  ...wineEnv(setup.prefix),
  CSI_WINE_BIN: setup.wine,
  CSI_WINE_NODE: setup.node,
  CSI_WINE_APP: setup.app,
  CSI_WINE_EXE: join(repoRoot, "artifacts", "windows", "csi-proxy-server.exe"),
  CSI_WINE_KOFFI_NODE: join(provisionKoffiWin32(), "win32_x64", "koffi.node"),
};
let status;
try {
  const run = spawnSync(
    "pnpm",
    [
      "--filter",
      "@csi-proxy/server",
      "exec",
      "vitest",
      "run",
      "--config",
      "vitest.wine.config.ts",
      ...process.argv.slice(2),
    ],
    { cwd: repoRoot, env, stdio: "inherit", timeout: 20 * 60_000 },
  );
  status = run.status ?? 1;
} finally {
  // The prefix is the suite's own: whatever still runs in it (a service, the service manager,
  // wineserver) was started by the suite.
  const wineserver = findOnPath("wineserver") ?? join(dirname(setup.wine), "wineserver");
  spawnSync(wineserver, ["-k"], { env, stdio: "ignore", timeout: 30_000 });
}
process.exit(status);
