import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PowerShell } from "@csi-proxy/exec";
import { createNodeSmbLinkHost } from "@csi-proxy/smb";
import {
  Simulator,
  createSimulatedPowerShell,
  demoNodeWorld,
  iscsiHostNameResolver,
  scenarios,
  translateUncLinks,
} from "@csi-proxy/winsim";
import { groupsOn, type CliGroups } from "./node.js";

/**
 * The groups wired to a simulated host as they are on a real node: POSIX paths (the simulator
 * runs on Linux), SMB links that reach the share's folder, names resolved from its table.
 */
export function simulatorGroups(sim: Simulator, shell: PowerShell): Omit<CliGroups, "close"> {
  return groupsOn(shell, {
    pathStyle: "posix",
    smbLinks: translateUncLinks(sim, createNodeSmbLinkHost()),
    resolveHostName: iscsiHostNameResolver(sim),
  });
}

/** Where the simulated node's driver staged disk 1's volume. */
export function stagingPath(sim: Simulator): string {
  return join(sim.root, "var", "lib", "kubelet", "plugins", "demo", "pv-data", "globalmount");
}

/**
 * Brings the demo node to the state of a node with live volumes, through the public groups as a
 * CSI driver would: the iSCSI initiator service started (Windows ships it stopped, manual), the array's portal registered and its target logged in with CHAP, the file
 * server's share mapped with its account, disk 1's volume mounted at {@link stagingPath}.
 */
export async function stageDemoNode(
  sim: Simulator,
  groups: Omit<CliGroups, "close">,
): Promise<void> {
  const { portal, iqn, chap, share, smbUser, smbPassword } = demoNodeWorld;
  await groups.system.startService({ name: "MSiSCSI" });
  await groups.iscsi.addTargetPortal({ targetPortal: portal });
  await groups.iscsi.connectTarget({
    targetPortal: portal,
    iqn,
    authType: "ONE_WAY_CHAP",
    chapUsername: chap.username,
    chapSecret: chap.secret,
  });
  await groups.smb.newSmbGlobalMapping({
    remotePath: share,
    username: smbUser,
    password: smbPassword,
  });
  const [volumeId] = (await groups.volume.listVolumesOnDisk({ diskNumber: 1 })).volumeIds;
  if (volumeId === undefined) throw new Error("the demo node's disk 1 has no volume");
  mkdirSync(stagingPath(sim), { recursive: true });
  await groups.volume.mountVolume({ volumeId, targetPath: stagingPath(sim) });
}

/** `--simulate`: a fresh, staged demo node in a temporary folder, removed again on close. */
export async function simulatedNodeGroups(): Promise<CliGroups> {
  const sim = await Simulator.create(scenarios.demoNode());
  let shell: PowerShell | undefined;
  const close = async () => {
    try {
      await shell?.close();
    } finally {
      await sim.dispose();
    }
  };
  try {
    shell = await createSimulatedPowerShell(sim);
    const groups = simulatorGroups(sim, shell);
    await stageDemoNode(sim, groups);
    return { ...groups, close };
  } catch (error) {
    await close();
    throw error;
  }
}
