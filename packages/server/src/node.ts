import { mkdirSync, readFileSync } from "node:fs";
import { Disk } from "@csi-proxy/disk";
import { createPowerShell, type PowerShell } from "@csi-proxy/exec";
import { createNodeFilesystemHost, Filesystem, type FilesystemHost } from "@csi-proxy/filesystem";
import { Iscsi } from "@csi-proxy/iscsi";
import { Smb } from "@csi-proxy/smb";
import { System } from "@csi-proxy/system";
import { Volume } from "@csi-proxy/volume";
import type { ScenarioSpec } from "@csi-proxy/winsim";
import type { NodeGroups } from "./handlers/context.js";
import type { SimulatorFolders } from "./server.js";
import { simulatedPaths, windowsPaths, type PathMapping } from "./paths.js";
import { loadKoffiOnWindows } from "./koffi.js";
import { loadSimulator } from "./simulator-module.js";

/** The node the server works on: its groups, how paths reach it, and how to let it go. */
export interface ServedNode {
  readonly groups: NodeGroups;
  readonly paths: PathMapping;
  /** How Node sees the node's folders: where a request's links lead is read through it. */
  readonly fsHost: FilesystemHost;
  /** The PowerShell host the groups share (readiness and pool gauges read it). */
  readonly shell: PowerShell;
  /** The simulated node's folders (`--simulate` only), for tests and the ready line. */
  readonly simulator?: SimulatorFolders | undefined;
  /** Ends the PowerShell processes (and removes a simulated node). */
  close(): Promise<void>;
}

/** This Windows machine: Windows PowerShell, Windows paths, the working dirs as the filesystem sandbox. */
export function windowsNode(workingDirs: readonly string[], poolSize: number): ServedNode {
  const shell = createPowerShell({ poolSize });
  // Reparse points read through the server's own koffi: a junction to a volume is no folder.
  const fsHost = createNodeFilesystemHost(
    process.platform === "win32" ? { koffi: loadKoffiOnWindows("reparse points") } : {},
  );
  const groups: NodeGroups = {
    disk: new Disk({ shell }),
    filesystem: new Filesystem({ host: fsHost, pathStyle: "windows", allowedRoots: workingDirs }),
    iscsi: new Iscsi({ shell }),
    smb: new Smb({ shell, pathStyle: "windows" }),
    system: new System({ shell }),
    volume: new Volume({ shell, pathStyle: "windows" }),
  };
  return {
    groups,
    paths: windowsPaths,
    fsHost,
    shell,
    close: () => shell.close(),
  };
}

/**
 * `--simulate`: a fresh simulated node in a temporary folder (`scenarios.demoNode()` of
 * `@csi-proxy/winsim`, or the `ScenarioSpec` in `scenarioFile`), its drive C: under the
 * simulator's root, wired as packages/cli wires it. The working dirs are created there, as they
 * exist on a node. Loaded only when asked for, so a server on Windows never imports the simulator.
 */
export async function simulatedNode(
  workingDirs: readonly string[],
  scenarioFile: string | undefined,
  poolSize: number,
): Promise<ServedNode> {
  const winsim = await loadSimulator();
  const { createNodeSmbLinkHost } = await import("@csi-proxy/smb");
  const spec =
    scenarioFile === undefined
      ? winsim.scenarios.demoNode()
      : (JSON.parse(readFileSync(scenarioFile, "utf8")) as ScenarioSpec);
  const sim = await winsim.Simulator.create(spec);
  let shell: PowerShell | undefined;
  const close = async () => {
    try {
      await shell?.close();
    } finally {
      await sim.dispose();
    }
  };
  try {
    const paths = simulatedPaths(sim.root, (hostPath) => winsim.localToUnc(sim, hostPath));
    const roots = workingDirs.map((dir) => paths.toHost(dir));
    for (const root of roots) mkdirSync(root, { recursive: true });
    const simulatedShell = await winsim.createSimulatedPowerShell(sim, { poolSize });
    shell = simulatedShell;
    const fsHost = winsim.windowsFilesystemHost(sim);
    const groups: NodeGroups = {
      disk: new Disk({ shell }),
      filesystem: new Filesystem({
        host: fsHost,
        pathStyle: "posix",
        allowedRoots: roots,
      }),
      iscsi: new Iscsi({ shell, resolveHostName: winsim.iscsiHostNameResolver(sim) }),
      smb: new Smb({
        shell,
        pathStyle: "posix",
        links: winsim.translateUncLinks(sim, createNodeSmbLinkHost()),
      }),
      system: new System({ shell }),
      volume: new Volume({ shell, pathStyle: "posix" }),
    };
    const simulator = { dir: sim.dir, root: sim.root };
    return { groups, paths, fsHost, shell: simulatedShell, simulator, close };
  } catch (error) {
    await close();
    throw error;
  }
}
