// The restage storm's 32 sequences called on the library directly (issue #37): the same v1 RPCs
// the drivers send, each mapped to the group method the server's handler calls, on a simulated
// node wired as the server wires its own (`--simulate`: pool of 4, the simulator's name resolver,
// UNC links, filesystem host), with no policy and no ownership decisions. What the server asks
// of the host beyond this is what its own work costs.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Disk } from "@csi-proxy/disk";
import { grpcStatusOf, type PowerShell } from "@csi-proxy/exec";
import { Filesystem } from "@csi-proxy/filesystem";
import { Iscsi, type AuthenticationType } from "@csi-proxy/iscsi";
import { createNodeSmbLinkHost, Smb } from "@csi-proxy/smb";
import { System } from "@csi-proxy/system";
import { Volume } from "@csi-proxy/volume";
import {
  createSimulatedPowerShell,
  iscsiHostNameResolver,
  Simulator,
  translateUncLinks,
  windowsFilesystemHost,
} from "@csi-proxy/winsim";
import type { Reply } from "./rpc.js";
import { stormScenario, stormVolumesPerKind, type StormHost } from "./storm.js";

type Request = Record<string, unknown>;
type Answer = Promise<object>;

interface Groups {
  readonly disk: Disk;
  readonly filesystem: Filesystem;
  readonly iscsi: Iscsi;
  readonly smb: Smb;
  readonly system: System;
  readonly volume: Volume;
}

const str = (request: Request, field: string) => {
  const value = request[field];
  return typeof value === "string" ? value : "";
};
const num = (request: Request, field: string) => Number(request[field] ?? 0);
const portalOf = (request: Request) => {
  const portal = request.target_portal as Request;
  return { targetAddress: str(portal, "target_address"), targetPort: num(portal, "target_port") };
};

/** Each v1 RPC of the storm as the server's handler calls the group (paths mapped to the host). */
function methods(groups: Groups, host: (windowsPath: string) => string) {
  const { disk, filesystem, iscsi, smb, system, volume } = groups;
  const table: Readonly<Record<string, (request: Request) => Answer>> = {
    "system.StartService": async (r) => system.startService({ name: str(r, "name") }),
    "iscsi.AddTargetPortal": async (r) => iscsi.addTargetPortal({ targetPortal: portalOf(r) }),
    "iscsi.ConnectTarget": async (r) =>
      iscsi.connectTarget({
        targetPortal: portalOf(r),
        iqn: str(r, "iqn"),
        authType: str(r, "auth_type") as AuthenticationType,
        chapUsername: str(r, "chap_username"),
        chapSecret: str(r, "chap_secret"),
      }),
    "iscsi.GetTargetDisks": async (r) => {
      const { diskIds } = await iscsi.getTargetDisks({
        targetPortal: portalOf(r),
        iqn: str(r, "iqn"),
      });
      return { diskIDs: diskIds.map(String) };
    },
    "disk.Rescan": async () => disk.rescan({}),
    "disk.GetDiskState": async (r) => {
      const { isOnline } = await disk.getDiskState({ diskNumber: num(r, "disk_number") });
      return { is_online: isOnline };
    },
    "disk.SetDiskState": async (r) =>
      disk.setDiskState({ diskNumber: num(r, "disk_number"), isOnline: r.is_online === true }),
    "disk.PartitionDisk": async (r) => disk.partitionDisk({ diskNumber: num(r, "disk_number") }),
    "volume.ListVolumesOnDisk": async (r) => {
      const { volumeIds } = await volume.listVolumesOnDisk({ diskNumber: num(r, "disk_number") });
      return { volume_ids: volumeIds };
    },
    "volume.IsVolumeFormatted": async (r) =>
      volume.isVolumeFormatted({ volumeId: str(r, "volume_id") }),
    "volume.FormatVolume": async (r) => volume.formatVolume({ volumeId: str(r, "volume_id") }),
    "volume.MountVolume": async (r) =>
      volume.mountVolume({
        volumeId: str(r, "volume_id"),
        targetPath: host(str(r, "target_path")),
      }),
    "filesystem.PathExists": async (r) => filesystem.pathExists({ path: host(str(r, "path")) }),
    "filesystem.Mkdir": async (r) => filesystem.mkdir({ path: host(str(r, "path")) }),
    "filesystem.IsMountPoint": async (r) => {
      const { isSymlink } = await filesystem.isSymlink({ path: host(str(r, "path")) });
      return { is_mount_point: isSymlink };
    },
    "smb.NewSmbGlobalMapping": async (r) =>
      smb.newSmbGlobalMapping({
        remotePath: str(r, "remote_path"),
        localPath: host(str(r, "local_path")),
        username: str(r, "username"),
        password: str(r, "password"),
        requirePrivacy: true,
      }),
  };
  return table;
}

/**
 * A storm node whose calls go to the library: a fresh simulated node of the storm's scenario
 * (`cimLatencyMs` as the server's run sets it), one shared pool of `poolSize` processes.
 */
export async function startLibraryStormNode(
  pwsh: string,
  perKind = stormVolumesPerKind,
  cimLatencyMs = 0,
  poolSize = 4,
): Promise<StormHost> {
  const sim = await Simulator.create(stormScenario(perKind, cimLatencyMs));
  let shell: PowerShell | undefined;
  try {
    shell = await createSimulatedPowerShell(sim, { pwsh: { path: pwsh }, poolSize });
    const host = (windowsPath: string) => join(sim.root, ...windowsPath.slice(3).split("\\"));
    const kubelet = host("C:\\var\\lib\\kubelet");
    mkdirSync(kubelet, { recursive: true });
    const groups: Groups = {
      disk: new Disk({ shell }),
      filesystem: new Filesystem({
        host: windowsFilesystemHost(sim),
        pathStyle: "posix",
        allowedRoots: [kubelet],
      }),
      iscsi: new Iscsi({ shell, resolveHostName: iscsiHostNameResolver(sim) }),
      smb: new Smb({
        shell,
        pathStyle: "posix",
        links: translateUncLinks(sim, createNodeSmbLinkHost()),
      }),
      system: new System({ shell }),
      volume: new Volume({ shell, pathStyle: "posix" }),
    };
    const table = methods(groups, host);
    let sent = 0;
    const opened = shell;
    return {
      simulator: { dir: sim.dir, root: sim.root },
      sent: () => sent,
      async call(_kind, group, _version, method, request): Promise<Reply> {
        const run = table[`${group}.${method}`];
        if (run === undefined) throw new Error(`the library storm has no ${group}.${method}`);
        sent++;
        try {
          const message = (await run(request as Request)) as Record<string, unknown>;
          return { code: 0, details: "", message };
        } catch (error) {
          return {
            code: grpcStatusOf(error).code,
            details: error instanceof Error ? error.message : String(error),
            message: {},
          };
        }
      },
      async close() {
        await opened.close();
        await sim.dispose();
      },
    };
  } catch (error) {
    await shell?.close();
    await sim.dispose();
    throw error;
  }
}
