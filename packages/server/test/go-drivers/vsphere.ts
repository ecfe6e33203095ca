// vsphere-csi-driver's last csi-proxy v1 client (go-drivers.md: commit e1c1bc59,
// pkg/csi/service/node.go, osutils/windows_os_utils.go): NodeGetInfo reads the BIOS serial, the
// disk is the one whose page 83 id is the publish context's diskUUID, every path normalised but
// the raw pod path StatFS sends, and the staging folder must exist before NodeStageVolume.
import { lstatSync } from "node:fs";
import { CsiError, internal, type GoNode } from "./go-client.js";
import { normalizeWindowsPath, onHost, type KubeletPaths } from "./kubelet.js";
import {
  diskBytes,
  diskOfVolume,
  formatAndMount,
  pathExists,
  volumeBytes,
  volumeIdAt,
  type DriverReplay,
  link,
  unmountAndOffline,
} from "./replay.js";
import { vsphere } from "./world.js";

const MiB = 1024n ** 2n;

/** NodeGetInfo: the node VM's UUID from `VMware-42 1c ...` (32 hex digits). */
export async function vmUuid(node: GoNode): Promise<string> {
  const { serial_number } = (await node.call("system-v1alpha1", "GetBIOSSerialNumber")) as {
    serial_number: string;
  };
  if (!serial_number.startsWith("VMware-")) throw new Error(`not a VMware BIOS: ${serial_number}`);
  const hex = serial_number.slice("VMware-".length).replaceAll(/[\s-]/g, "");
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`not a VM UUID: ${serial_number}`);
  return hex;
}

export function vsphereCsi(node: GoNode, kubelet: KubeletPaths): DriverReplay {
  const staging = normalizeWindowsPath(kubelet.staging);
  let volumeId = "";

  async function diskNumber(): Promise<number> {
    const { diskIDs } = (await node.call("disk-v1", "ListDiskIDs")) as {
      diskIDs: Record<string, { page83: string }>;
    };
    const found = Object.entries(diskIDs).find(([, ids]) => ids.page83 === vsphere.diskUuid);
    if (found === undefined) throw new Error(`disk ${vsphere.diskUuid} not found`);
    return Number(found[0]);
  }

  return {
    driver: "csi.vsphere.vmware.com",
    set: "vsphere",
    async nodeInfo() {
      await vmUuid(node);
    },
    async stage() {
      if (!(await pathExists(node, staging))) {
        throw new CsiError("FailedPrecondition", `staging path ${kubelet.staging} not pre-created`);
      }
      try {
        const n = await diskNumber();
        // The container's os.Lstat: a symbolic link there (the mount point) is staged.
        if (lstatSync(onHost(node.root, staging)).isSymbolicLink()) return;
        volumeId = await formatAndMount(node, n, staging, true);
      } catch (error) {
        throw internal(`error mounting volume ${vsphere.diskUuid}`, error);
      }
    },
    async publish() {
      try {
        if (await pathExists(node, kubelet.target)) {
          await node.call("filesystem-v1", "Rmdir", { path: kubelet.target, force: true });
        }
        const parent = kubelet.target.slice(0, kubelet.target.lastIndexOf("\\"));
        await node.call("filesystem-v1", "Mkdir", { path: parent });
        await link(node, staging, kubelet.target);
      } catch (error) {
        throw internal(`error publish volume to target path ${kubelet.target}`, error);
      }
    },
    async stats() {
      try {
        await volumeBytes(node, await volumeIdAt(node, kubelet.target));
      } catch (error) {
        throw internal(`failed to get fs stats for ${kubelet.target}`, error);
      }
    },
    async expand(grow) {
      grow();
      const required = BigInt(vsphere.grownSize);
      try {
        // OnlineVolumeExtend.
        const id = await volumeIdAt(node, kubelet.target);
        if ((await volumeBytes(node, id)) < required) {
          await node.call("disk-v1", "Rescan");
        }
        const n = await diskOfVolume(node, id);
        // Skip when the disk holds the request within 1 MiB: once the VMDK grew, always.
        if (required - (await diskBytes(node, n)) < MiB) return await volumeBytes(node, id);
        await diskOfVolume(node, id);
        await node.call("disk-v1", "SetDiskState", { disk_number: n, is_online: true });
        await node.call("volume-v1", "ResizeVolume", { volume_id: id, size_bytes: 0 });
        return await volumeBytes(node, id);
      } catch (error) {
        throw internal(`failed to expand volume at ${kubelet.target}`, error);
      }
    },
    async unpublish() {
      await node
        .call("filesystem-v1", "Rmdir", { path: kubelet.target, force: true })
        .catch((e: unknown) => {
          throw internal(`error unpublishing ${kubelet.target}`, e);
        });
    },
    async unstage() {
      try {
        if (!(await pathExists(node, staging))) return;
        if (!(await pathExists(node, staging))) return;
        await unmountAndOffline(node, staging);
      } catch (error) {
        throw internal(`error unmounting stage target ${kubelet.staging}`, error);
      }
    },
    holds: () => ({ diskNumber: vsphere.diskNumber, volumeId, paths: [staging, kubelet.target] }),
  };
}
