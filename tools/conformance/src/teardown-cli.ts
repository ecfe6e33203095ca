// `pnpm --filter @csi-proxy/conformance run teardown [--uninstall-feature] [--stop-initiator]`:
// removes every csiconf* object windows/setup.ps1 can have left (after a crash, say). The same
// refusal as the suite: only with CSI_CONFORMANCE_DISPOSABLE set. Runs in Windows PowerShell, as
// the suite's own fixture does (CSI_CONFORMANCE_POWERSHELL picks the library's PowerShell only).
import { createPowerShell } from "@csi-proxy/exec";
import { selectHost } from "./select.js";
import { fixtureExecutable, teardownWindows } from "./windows-host.js";

const selection = selectHost({ ...process.env, CSI_CONFORMANCE_HOST: "windows" });
const shell = createPowerShell({ executable: fixtureExecutable });
try {
  const lines = await teardownWindows(shell, {
    root: selection.scratchRoot,
    tag: "",
    portalAddress: selection.portalAddress,
    service: selection.stoppableService,
    uninstallFeature: process.argv.includes("--uninstall-feature"),
    stopInitiator: process.argv.includes("--stop-initiator"),
  });
  for (const line of lines) console.log(line);
} finally {
  await shell.close();
}
