import { mkdirSync, rmSync } from "node:fs";
import type { CallOptions, PowerShell } from "@csi-proxy/exec";
import { createNodeSmbLinkHost } from "@csi-proxy/smb";
import {
  Simulator,
  createSimulatedPowerShell,
  demoNodeWorld,
  iscsiHostNameResolver,
  scenarios,
  translateUncLinks,
} from "@csi-proxy/winsim";
import { UsageError } from "./failure.js";
import { groupsOn, type CliGroups, type GroupsRequest } from "./node.js";
import { stagingPathUnder } from "./simulated-path.js";

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
  return stagingPathUnder(sim.root);
}

/**
 * Brings the demo node to the state of a node with live volumes, through the public groups as a
 * CSI driver would: the iSCSI initiator service started (Windows ships it stopped, manual), the
 * array's portal registered and its target logged in with CHAP, the file server's share mapped
 * with its account, disk 1's volume mounted at {@link stagingPath}. `options` go to every call
 * (the run's Ctrl-C).
 */
export async function stageDemoNode(
  sim: Simulator,
  groups: Omit<CliGroups, "close">,
  options?: CallOptions,
): Promise<void> {
  const { portal, iqn, chap, share, smbUser, smbPassword } = demoNodeWorld;
  await groups.system.startService({ name: "MSiSCSI" }, options);
  await groups.iscsi.addTargetPortal({ targetPortal: portal }, options);
  await groups.iscsi.connectTarget(
    {
      targetPortal: portal,
      iqn,
      authType: "ONE_WAY_CHAP",
      chapUsername: chap.username,
      chapSecret: chap.secret,
    },
    options,
  );
  await groups.smb.newSmbGlobalMapping(
    { remotePath: share, username: smbUser, password: smbPassword },
    options,
  );
  const { volumeIds } = await groups.volume.listVolumesOnDisk({ diskNumber: 1 }, options);
  const [volumeId] = volumeIds;
  if (volumeId === undefined) throw new Error("the demo node's disk 1 has no volume");
  mkdirSync(stagingPath(sim), { recursive: true });
  await groups.volume.mountVolume({ volumeId, targetPath: stagingPath(sim) }, options);
}

/** The node `--state-dir` names, as it was left; or a new one there (or in a temporary folder). */
async function openNode(
  stateDir: string | undefined,
): Promise<{ sim: Simulator; created: boolean }> {
  if (stateDir !== undefined && Simulator.exists(stateDir)) {
    return { sim: await Simulator.open(stateDir), created: false };
  }
  if (stateDir === undefined)
    return { sim: await Simulator.create(scenarios.demoNode()), created: true };
  try {
    return { sim: await Simulator.create(scenarios.demoNode(), { dir: stateDir }), created: true };
  } catch (error) {
    // A folder holding something else: the operator's mistake, not a bug.
    throw new UsageError(`--state-dir: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * `--simulate`: the demo node, staged when it is new. A node in a temporary folder is removed on
 * close, and also if the process exits without closing (a second Ctrl-C); one kept with
 * `--state-dir` stays, unless preparing it failed.
 */
export async function simulatedNodeGroups(request: GroupsRequest): Promise<CliGroups> {
  const { sim, created } = await openNode(request.stateDir);
  const temporary = request.stateDir === undefined;
  // Synchronous, as an exit listener must be: process.exit skips every await.
  const removeOnExit = () => rmSync(sim.dir, { recursive: true, force: true });
  if (temporary) process.once("exit", removeOnExit);
  let shell: PowerShell | undefined;
  const close = async (remove: boolean) => {
    try {
      await shell?.close();
    } finally {
      if (remove) {
        await sim.dispose();
        process.off("exit", removeOnExit);
      }
    }
  };
  try {
    shell = await createSimulatedPowerShell(sim);
    const groups = simulatorGroups(sim, shell);
    const { signal } = request;
    if (created) await stageDemoNode(sim, groups, signal === undefined ? undefined : { signal });
    return { ...groups, close: () => close(temporary) };
  } catch (error) {
    await close(temporary || created);
    throw error;
  }
}
