// azurefile-csi-driver's Windows node service on csi-proxy v1 (go-drivers.md, commit 7b5ae18e:
// pkg/azurefile/nodeserver.go, azure_common_windows.go, pkg/mounter/safe_mounter_windows.go): the
// share is mapped at the staging path with the storage account's key, the pod path linked to the
// staging path, and both removed with Rmdir (`--remove-smb-mount-on-windows`): it never calls
// RemoveSmbGlobalMapping through csi-proxy, so the global mapping stays. Stats are read in the
// container; NodeExpandVolume is Unimplemented.
import { mkdirSync, readdirSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { internal, type GoNode } from "./go-client.js";
import { normalizeWindowsPath, onHost, type KubeletPaths } from "./kubelet.js";
import { isSymlink, pathExists, type DriverReplay, link } from "./replay.js";
import { azureFiles } from "./world.js";

export function azurefile(node: GoNode, kubelet: KubeletPaths): DriverReplay {
  const staging = normalizeWindowsPath(kubelet.staging);
  const target = normalizeWindowsPath(kubelet.target);

  // ensureMountPoint: a link there is mounted (and the container can read it); a missing
  // folder is made by the container.
  async function mountedAt(path: string): Promise<boolean> {
    if (!(await pathExists(node, path))) {
      mkdirSync(onHost(node.root, path), { recursive: true });
      return false;
    }
    if (!(await isSymlink(node, path))) return false;
    readdirSync(onHost(node.root, path));
    return true;
  }

  return {
    driver: "file.csi.azure.com",
    set: "azurefile",
    async stage() {
      try {
        if (await mountedAt(staging)) return;
        // SMBMount: the folder goes, the parent stays, the mapping makes the link.
        if (await pathExists(node, staging)) {
          await node.call("filesystem-v1", "Rmdir", { path: staging, force: true });
        }
        const parent = staging.slice(0, staging.lastIndexOf("\\"));
        if (!(await pathExists(node, parent))) {
          await node.call("filesystem-v1", "Mkdir", { path: parent });
        }
        await node.call("smb-v1", "NewSmbGlobalMapping", {
          remote_path: azureFiles.share,
          local_path: staging,
          username: azureFiles.username,
          password: azureFiles.accountKey,
        });
      } catch (error) {
        throw internal(`volume(${azureFiles.share}) mount on ${kubelet.staging} failed`, error);
      }
    },
    async publish() {
      try {
        if (await mountedAt(target)) return;
        if (await pathExists(node, target)) {
          await node.call("filesystem-v1", "Rmdir", { path: target, force: true });
        }
        await link(node, staging, target);
      } catch (error) {
        throw internal(`Could not mount ${kubelet.staging} at ${kubelet.target}`, error);
      }
    },
    async stats() {
      // os.Lstat and GetDiskFreeSpaceEx in the container, through the published link.
      await readdir(onHost(node.root, target));
    },
    async unpublish() {
      await node
        .call("filesystem-v1", "Rmdir", { path: target, force: true })
        .catch((e: unknown) => {
          throw internal(`failed to unmount target ${kubelet.target}`, e);
        });
    },
    async unstage() {
      await node
        .call("filesystem-v1", "Rmdir", { path: staging, force: true })
        .catch((e: unknown) => {
          throw internal(`failed to unmount staging target ${kubelet.staging}`, e);
        });
    },
    holds: () => ({ paths: [staging, target], share: azureFiles.share }),
  };
}
