// `pnpm demo`: a Windows CSI node's life, through the public packages exactly as a driver uses
// them, on the simulated Windows host (real PowerShell running the real scripts).
import { join } from "node:path";
import { createPowerShell } from "@csi-proxy/exec";
import { provisionPwsh } from "@csi-proxy/pwsh";
import { Simulator, windowsFilesystemHost } from "@csi-proxy/winsim";
import { parseDemoArgs } from "./args.js";
import { runLifecycle } from "./lifecycle.js";
import { createNodeGroups } from "./node.js";
import { kubeletPaths } from "./paths.js";
import { runReadOnly } from "./readonly.js";
import { simulatedArray, simulatedShareLinks } from "./sim-array.js";
import { StepRunner } from "./steps.js";
import { demoScenario } from "./world.js";

const args = parseDemoArgs(process.argv.slice(2));
const runner = new StepRunner(args.json, args.verbose);

if (args.host === "real") {
  const shell = createPowerShell({ mode: args.mode });
  const groups = createNodeGroups(shell, {
    pathStyle: "windows",
    kubeletRoot: "C:\\var\\lib\\kubelet",
  });
  if (!args.json)
    console.log(`csi-proxy demo: read-only steps on this Windows host, ${args.mode} mode`);
  try {
    await runReadOnly(groups, runner);
  } finally {
    await shell.close();
  }
} else {
  const pwsh = provisionPwsh({ quiet: true });
  if (pwsh === undefined) process.exit(1);
  const sim = await Simulator.create(demoScenario());
  const shell = createPowerShell(
    sim.shellOptions({ executable: pwsh, mode: args.mode, poolSize: 2 }),
  );
  const paths = kubeletPaths(join(sim.root, "var", "lib", "kubelet"), "posix");
  const groups = createNodeGroups(shell, {
    pathStyle: "posix",
    kubeletRoot: paths.root,
    smbLinks: simulatedShareLinks(sim),
    // Mount points as Node sees them on Windows: folders, not the simulator's Linux symlinks.
    fsHost: windowsFilesystemHost(sim),
  });
  if (!args.json)
    console.log(
      `csi-proxy demo: a CSI node's life on the simulated Windows host (${sim.dir}), ${args.mode} mode\n`,
    );
  try {
    await runLifecycle(groups, paths, runner, simulatedArray(sim));
  } finally {
    await shell.close();
    await sim.dispose();
  }
}

if (args.json)
  console.log(JSON.stringify({ mode: args.mode, host: args.host, steps: runner.results }, null, 2));
else
  console.log(
    `\n${runner.results.filter((r) => r.ok).length} of ${runner.results.length} steps ok, ${runner.totalMs().toFixed(0)} ms in all`,
  );
process.exitCode = runner.results.every((r) => r.ok) ? 0 : 1;
