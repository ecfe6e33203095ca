import { join } from "node:path";
import type { PowerShell } from "@csi-proxy/exec";
import { createNodeSmbLinkHost } from "@csi-proxy/smb";
import {
  createSimulatedPowerShell,
  Simulator,
  translateUncLinks,
  windowsFilesystemHost,
  type ScenarioSpec,
} from "@csi-proxy/winsim";
import { afterEach, beforeEach } from "vitest";
import { createNodeGroups, type NodeGroups } from "../src/node.js";

export interface Node {
  sim: Simulator;
  shell: PowerShell;
  groups: NodeGroups;
  /** kubelet's root on this host (under the simulator's sandbox). */
  kubelet: string;
}

/** A fresh simulated node per test, with the groups wired as the plugin wires them. */
export function useNode(spec: () => ScenarioSpec): Node {
  const node = {} as Node;
  beforeEach(async () => {
    node.sim = await Simulator.create(spec());
    // pwsh 7: CSI_WINSIM_PWSH, else pwsh on PATH, else provisioned with the .NET SDK (findPwsh).
    node.shell = await createSimulatedPowerShell(node.sim, { poolSize: 1 });
    node.kubelet = join(node.sim.root, "var", "lib", "kubelet");
    node.groups = createNodeGroups(node.shell, {
      kubeletRoot: node.kubelet,
      pathStyle: "posix",
      // Mount points and SMB links as Windows shows them, not as the simulator stores them.
      fsHost: windowsFilesystemHost(node.sim),
      smbLinks: translateUncLinks(node.sim, createNodeSmbLinkHost()),
    });
  });
  afterEach(async () => {
    await node.shell.close();
    await node.sim.dispose();
  });
  return node;
}
