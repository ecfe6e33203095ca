// aws-ebs-csi-driver's Windows node service on csi-proxy v1 (go-drivers.md, commit 429e202e:
// pkg/driver/node.go, pkg/mounter/mount_windows.go, mount_windows_proxyV1.go): every path
// through NormalizeWindowsPath, the disk found by the serial that holds the EBS volume id, and a
// GetVolumeIDFromTargetPath error read as "nothing mounted" only when its text matches
// handleGetDeviceNameFromMountError's regexp (upstream v1.1/v1.2's PowerShell texts).
import { CsiError, GoStatusError, internal, type GoNode } from "./go-client.js";
import { normalizeWindowsPath, type KubeletPaths } from "./kubelet.js";
import {
  diskOfVolume,
  diskBytes,
  formatAndMount,
  pathExists,
  volumeBytes,
  volumeIdAt,
  type DriverReplay,
  link,
  unmountAndOffline,
} from "./replay.js";
import { ebs } from "./world.js";

/** handleGetDeviceNameFromMountError's pattern, as the driver compiles it (RE2 and JS agree here). */
export const nothingMountedPattern =
  /(Get-Item -Path \S+).Target, output: , error: <nil>|because it does not exist/;

// util.DefaultBlockSize: NeedResize tolerates one block.
const defaultBlockSize = 4096n;

export function awsEbs(node: GoNode, kubelet: KubeletPaths): DriverReplay {
  const staging = normalizeWindowsPath(kubelet.staging);
  const target = normalizeWindowsPath(kubelet.target);
  let volumeId = "";

  // FindDevicePath: the first disk whose serial holds the volume id without its '-'.
  async function findDevicePath(): Promise<string> {
    const { diskIDs } = (await node.call("disk-v1", "ListDiskIDs")) as {
      diskIDs: Record<string, { serial_number: string }>;
    };
    const serial = ebs.volumeId.replace("-", "");
    for (const [number, ids] of Object.entries(diskIDs)) {
      if (ids.serial_number.includes(serial)) return number;
    }
    throw new Error(`disk number for vol id ${ebs.volumeId} not found`);
  }

  // NodeMounter.GetDeviceNameFromMount: the disk number mounted at the path, refCount 0 when
  // the error text says nothing is mounted there.
  async function deviceNameFromMount(path: string): Promise<{ device: string; refCount: number }> {
    try {
      const id = await volumeIdAt(node, normalizeWindowsPath(path));
      return { device: String(await diskOfVolume(node, id)), refCount: 1 };
    } catch (error) {
      if (!(error instanceof GoStatusError)) throw error;
      if (nothingMountedPattern.test(error.message)) return { device: "", refCount: 0 };
      throw new Error(`error getting device name from mount: ${error.message}`, { cause: error });
    }
  }

  async function resize(path: string): Promise<void> {
    await node.call("disk-v1", "Rescan").catch(() => undefined);
    const id = await volumeIdAt(node, path);
    await node.call("volume-v1", "ResizeVolume", { volume_id: id, size_bytes: 0 });
  }

  return {
    driver: "ebs.csi.aws.com",
    set: "ebs",
    async stage() {
      const source = await findDevicePath().catch((e: unknown) => {
        throw internal("Failed to find device path", e);
      });
      try {
        if (!(await pathExists(node, staging))) {
          await node.call("filesystem-v1", "Mkdir", { path: staging });
        }
        const { device } = await deviceNameFromMount(kubelet.staging);
        if (device === source) return; // volume already staged
        volumeId = await formatAndMount(node, Number(source), staging, true);
        // NeedResize (its Rescan's error only logged), then Resize when it says so.
        await node.call("disk-v1", "Rescan").catch(() => undefined);
        const deviceSize = await diskBytes(node, Number(source));
        const fsSize = await volumeBytes(node, await volumeIdAt(node, staging));
        if (deviceSize <= defaultBlockSize + fsSize) await resize(staging);
      } catch (error) {
        throw internal(`could not stage ${source} at ${kubelet.staging}`, error);
      }
    },
    async publish() {
      try {
        // PreparePublishTarget: kubelet <1.20 made the folder; mklink needs it gone.
        if (await pathExists(node, target)) {
          await node.call("filesystem-v1", "Rmdir", { path: target, force: true });
        }
        // IsLikelyNotMountPoint: a missing path is "not a mount point".
        if (await pathExists(node, target)) {
          await node.call("filesystem-v1", "IsSymlink", { path: target });
        }
        await link(node, staging, target);
      } catch (error) {
        throw internal(`Could not mount ${kubelet.staging} at ${kubelet.target}`, error);
      }
    },
    async stats() {
      const exists = await pathExists(node, target).catch((e: unknown) => {
        throw internal("unknown error when stat", e);
      });
      if (!exists) throw new CsiError("NotFound", `path ${kubelet.target} does not exist`);
    },
    async expand(grow) {
      grow();
      try {
        const { device } = await deviceNameFromMount(kubelet.target);
        const devicePath = await findDevicePath();
        if (devicePath !== device) throw new Error(`${device} is not ${devicePath}`);
        await resize(target);
        return await diskBytes(node, Number(devicePath));
      } catch (error) {
        throw internal(`Could not resize volume ${ebs.volumeId}`, error);
      }
    },
    async unpublish() {
      await node
        .call("filesystem-v1", "Rmdir", { path: target, force: true })
        .catch((e: unknown) => {
          throw internal(`Could not unmount ${kubelet.target}`, e);
        });
    },
    async unstage() {
      try {
        const { refCount } = await deviceNameFromMount(kubelet.staging);
        if (refCount === 0) return; // not staged: OK, as the spec asks
        await unmountAndOffline(node, staging); // CSIProxyMounter.Unmount
      } catch (error) {
        throw internal(`Could not unmount target ${kubelet.staging}`, error);
      }
    },
    holds: () => ({ diskNumber: ebs.diskNumber, volumeId, paths: [staging, target] }),
  };
}
