// gcp-compute-persistent-disk-csi-driver's Windows node service on csi-proxy v1 (go-drivers.md,
// commit b560165c: pkg/gce-pd-csi-driver/node.go, pkg/mount-manager/safe-mounter-v1_windows.go):
// the disk found by the last field of its page 83 id (the metadata server's NVMe match falls back
// to it for a SCSI disk), and only PathExists, Rmdir, CreateSymlink and UnmountDevice normalise
// paths: IsSymlink, MountVolume and GetVolumeIDFromTargetPath get kubelet's paths as they are, the
// staging path without a drive. No error text is matched; an IsSymlink error counts as "not
// mounted".
import { lstatSync } from "node:fs";
import { CsiError, internal, type GoNode } from "./go-client.js";
import { normalizeWindowsPath, onHost, type KubeletPaths } from "./kubelet.js";
import {
  diskBytes,
  formatAndMount,
  isSymlink,
  pathExists,
  volumeBytes,
  volumeIdAt,
  type DriverReplay,
  link,
  unmountAndOffline,
} from "./replay.js";
import { gce } from "./world.js";

const GiB = 1024n ** 3n;

export function gcePd(node: GoNode, kubelet: KubeletPaths): DriverReplay {
  let volumeId = "";

  // getDiskNumberLegacy: the disk whose page 83 id ends with the device name.
  async function diskNumber(): Promise<number> {
    const { diskIDs } = (await node.call("disk-v1", "ListDiskIDs")) as {
      diskIDs: Record<string, { page83: string }>;
    };
    for (const [number, ids] of Object.entries(diskIDs)) {
      if (ids.page83 !== "" && ids.page83.split(/\s+/).at(-1) === gce.deviceName) {
        return Number(number);
      }
    }
    throw new Error(`could not find disk number for device ${gce.deviceName}`);
  }

  // isVolumePathMounted: IsLikelyNotMountPoint through IsSymlink; an error is "not mounted".
  const mounted = (path: string) => isSymlink(node, path).catch(() => false);

  return {
    driver: "pd.csi.storage.gke.io",
    set: "gce-pd",
    async stage() {
      try {
        const n = await diskNumber();
        if (await mounted(kubelet.staging)) return;
        // The publish context's disk-size: the disk, rounded up to GiB, holds it.
        const size = await diskBytes(node, n);
        if (((size + GiB - 1n) / GiB) * GiB < BigInt(gce.size)) throw new Error("disk too small");
        volumeId = await formatAndMount(node, n, kubelet.staging, true);
        // Not read-only: grow the file system to the disk.
        const id = await volumeIdAt(node, kubelet.staging);
        await node.call("volume-v1", "ResizeVolume", { volume_id: id, size_bytes: 0 });
      } catch (error) {
        throw internal(`NodeStageVolume failed for ${gce.deviceName}`, error);
      }
    },
    async publish() {
      try {
        if (await mounted(kubelet.target)) return;
        const target = normalizeWindowsPath(kubelet.target);
        if (await pathExists(node, target)) {
          await node.call("filesystem-v1", "Rmdir", { path: target, force: true });
        }
        // The container's os.MkdirAll of the parent: kubelet made it already.
        await link(node, normalizeWindowsPath(kubelet.staging), target);
      } catch (error) {
        throw internal(`mount of ${kubelet.staging} at ${kubelet.target} failed`, error);
      }
    },
    async stats() {
      // The container's os.Lstat first (NotFound when missing), then csi-proxy.
      lstatSync(onHost(node.root, kubelet.target));
      try {
        await volumeBytes(node, await volumeIdAt(node, kubelet.target));
      } catch (error) {
        throw internal(`failed to get fs info on path ${kubelet.target}`, error);
      }
    },
    async expand(grow) {
      grow();
      let n: number;
      try {
        n = await diskNumber();
        const id = await volumeIdAt(node, kubelet.target);
        await node.call("volume-v1", "ResizeVolume", { volume_id: id, size_bytes: 0 });
      } catch (error) {
        throw internal(`error when resizing volume ${gce.deviceName}`, error);
      }
      // getBlockSizeBytes reads the response before its error: a failed call is a nil
      // dereference, the driver's panic, not a status.
      const capacity = await diskBytes(node, n).catch((error: unknown) => {
        throw new Error(`panic: runtime error: invalid memory address (${String(error)})`);
      });
      if (capacity < BigInt(gce.grownSize)) {
        throw new CsiError(
          "Internal",
          `resize requested for ${gce.grownSize} but after resize volume was size ${capacity}`,
        );
      }
      return capacity;
    },
    async unpublish() {
      await node
        .call("filesystem-v1", "Rmdir", { path: normalizeWindowsPath(kubelet.target), force: true })
        .catch((e: unknown) => {
          throw internal(`Unmount failed for ${kubelet.target}`, e);
        });
    },
    async unstage() {
      const staging = normalizeWindowsPath(kubelet.staging);
      try {
        // UnmountDevice.
        if (await pathExists(node, staging)) {
          await unmountAndOffline(node, staging);
        }
      } catch (error) {
        throw internal(`NodeUnstageVolume failed to unmount at path ${kubelet.staging}`, error);
      }
      // --enable-device-in-use-check-on-node-unstage: the device looked up again; a failure
      // here is ignorable.
      await diskNumber().catch(() => undefined);
    },
    holds: () => ({
      diskNumber: gce.diskNumber,
      volumeId,
      paths: [normalizeWindowsPath(kubelet.staging), kubelet.target],
    }),
  };
}
