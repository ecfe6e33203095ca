// azuredisk-csi-driver's Windows node service on csi-proxy v1 (go-drivers.md, commit d983d613:
// pkg/azuredisk/nodeserver.go, azure_common_windows.go, pkg/mounter/safe_mounter_windows.go): the
// disk found by the publish context's LUN in ListDiskLocations (after a Rescan), no SetDiskState,
// and on Windows a ResizeVolume after every mount whose volume id is the disk number: upstream
// fails it too, so the first NodeStage answers Internal after the mount and kubelet's retry finds
// the staging path mounted (IsSymlink) and answers OK. It unstages by removing the mount point
// folder, never UnmountVolume.
import { readdirSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { CsiError, internal, type GoNode } from "./go-client.js";
import { normalizeWindowsPath, onHost, type KubeletPaths } from "./kubelet.js";
import { formatAndMount, isSymlink, pathExists, volumeBytes, volumeIdAt, link } from "./replay.js";
import type { DriverReplay } from "./replay.js";
import { azureDisk } from "./world.js";

const GiB = 1024n ** 3n;

export function azuredisk(node: GoNode, kubelet: KubeletPaths): DriverReplay {
  const staging = normalizeWindowsPath(kubelet.staging);
  let volumeId = "";

  // findDiskByLun: Rescan (its error logged), then ListDiskLocations polled for the LUN.
  async function diskByLun(): Promise<number> {
    await node.call("disk-v1", "Rescan").catch(() => undefined);
    for (let poll = 0; poll < 3; poll++) {
      const { disk_locations } = (await node.call("disk-v1", "ListDiskLocations")) as {
        disk_locations: Record<string, { LUNID: string }>;
      };
      for (const [number, location] of Object.entries(disk_locations)) {
        if (location.LUNID.toLowerCase() === azureDisk.lun.toLowerCase()) return Number(number);
      }
      await sleep(100);
    }
    throw new Error(`could not find disk for lun ${azureDisk.lun}`);
  }

  // ensureMountPoint: a link there is mounted (the container then reads the folder).
  async function alreadyMounted(path: string): Promise<boolean> {
    if (!(await pathExists(node, path))) return false;
    if (!(await isSymlink(node, path))) return false;
    readdirSync(onHost(node.root, path));
    return true;
  }

  return {
    driver: "disk.csi.azure.com",
    set: "azuredisk",
    async stage() {
      const n = await diskByLun().catch((e: unknown) => {
        throw internal("failed to find disk on lun", e);
      });
      try {
        if (await alreadyMounted(staging)) return;
        volumeId = await formatAndMount(node, n, staging, false);
      } catch (error) {
        throw internal(`could not format ${n} and mount it at ${kubelet.staging}`, error);
      }
      // needResizeVolume is true on Windows: the device path, a disk number, as the volume id.
      await node
        .call("volume-v1", "ResizeVolume", { volume_id: String(n), size_bytes: 0 })
        .catch((e: unknown) => {
          throw internal(`could not resize volume ${n} (${kubelet.staging})`, e);
        });
    },
    async publish() {
      try {
        if (await pathExists(node, kubelet.target)) {
          await node.call("filesystem-v1", "Rmdir", { path: kubelet.target, force: true });
        }
        if (!(await pathExists(node, kubelet.target))) {
          await link(node, staging, kubelet.target);
        }
      } catch (error) {
        throw internal(`could not mount ${kubelet.staging} at ${kubelet.target}`, error);
      }
    },
    async stats() {
      try {
        await volumeBytes(node, await volumeIdAt(node, kubelet.target));
      } catch (error) {
        throw internal(`failed to get stats of ${kubelet.target}`, error);
      }
    },
    async expand() {
      // No growth: with csi-proxy the driver's pre-check (the volume's size, rounded up to GiB,
      // must hold the request) refuses any grown disk, on upstream too (commit 9000e0c09).
      let id: string;
      try {
        id = await volumeIdAt(node, kubelet.target);
      } catch (error) {
        throw new CsiError(
          "NotFound",
          `failed to get volume id of ${kubelet.target}: ${String(error)}`,
        );
      }
      try {
        const before = await volumeBytes(node, id);
        if (((before + GiB - 1n) / GiB) * GiB < BigInt(azureDisk.size)) {
          throw new CsiError("Unavailable", "the disk has not grown yet");
        }
        await node.call("volume-v1", "ResizeVolume", { volume_id: id, size_bytes: 0 });
        return await volumeBytes(node, id);
      } catch (error) {
        throw internal(`could not resize volume at ${kubelet.target}`, error);
      }
    },
    async unpublish() {
      await node
        .call("filesystem-v1", "Rmdir", { path: kubelet.target, force: true })
        .catch((e: unknown) => {
          throw internal(`failed to unmount ${kubelet.target}`, e);
        });
    },
    async unstage() {
      // The cache flush is best effort, on the path as kubelet sent it.
      await volumeIdAt(node, kubelet.staging)
        .then((id) => node.call("volume-v1", "WriteVolumeCache", { volume_id: id }))
        .catch(() => undefined);
      await node
        .call("filesystem-v1", "Rmdir", { path: staging, force: true })
        .catch((e: unknown) => {
          throw internal(`failed to unmount ${kubelet.staging}`, e);
        });
    },
    holds: () => ({ diskNumber: azureDisk.diskNumber, volumeId, paths: [staging, kubelet.target] }),
  };
}
