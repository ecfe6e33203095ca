// A Windows CSI node plugin's NodeStageVolume / NodeUnstageVolume, reduced to the storage calls.
// Every step is idempotent, because kubelet retries a stage or unstage that failed or timed out.
import { Disk } from "@csi-proxy/disk";
import { CsiProxyError, isCsiProxyError, type PowerShell } from "@csi-proxy/exec";
import { Filesystem, type FilesystemHost } from "@csi-proxy/filesystem";
import { Smb, type SmbLinkHost } from "@csi-proxy/smb";
import { Volume } from "@csi-proxy/volume";

/** The groups the node plugin uses, sharing one PowerShell. */
export interface NodeGroups {
  readonly disk: Disk;
  readonly volume: Volume;
  readonly filesystem: Filesystem;
  readonly smb: Smb;
}

/** What differs between a real Windows node and a test host. */
export interface NodeOptions {
  /** The folder kubelet's staging and pod paths live under; the filesystem group stays inside it. */
  readonly kubeletRoot: string;
  /** "windows" on a node; "posix" on the simulator, whose paths are Linux paths. */
  readonly pathStyle: "windows" | "posix";
  /** How Node sees the host's folders (default: node:fs). */
  readonly fsHost?: FilesystemHost;
  /** How SMB links are made (default: node:fs). */
  readonly smbLinks?: SmbLinkHost;
}

export function createNodeGroups(shell: PowerShell, options: NodeOptions): NodeGroups {
  const { pathStyle } = options;
  return {
    disk: new Disk({ shell }),
    volume: new Volume({ shell, pathStyle }),
    filesystem: new Filesystem({
      pathStyle,
      allowedRoots: [options.kubeletRoot],
      ...(options.fsHost === undefined ? {} : { host: options.fsHost }),
    }),
    smb: new Smb({
      shell,
      pathStyle,
      ...(options.smbLinks === undefined ? {} : { links: options.smbLinks }),
    }),
  };
}

/** NodeStageVolume for a block volume: the disk with this page 83 id, as NTFS at `stagingPath`. */
export async function stageBlockVolume(
  groups: NodeGroups,
  request: { readonly page83: string; readonly stagingPath: string; readonly label?: string },
): Promise<{ diskNumber: number; volumeId: string }> {
  const { disk, volume, filesystem } = groups;
  // A LUN attached since the last enumeration is unknown to Windows until the cache is updated.
  await disk.rescan();
  const { diskNumber } = await disk.getDiskNumberByPage83({ page83: request.page83 });
  // A retry after a stage that completed: two reads instead of seven steps that find it done.
  const staged = await stagedVolume(groups, request.stagingPath, diskNumber);
  if (staged !== undefined) return { diskNumber, volumeId: staged };
  await disk.setDiskState({ diskNumber, isOnline: true });
  await disk.partitionDisk({ diskNumber });
  const { volumeIds } = await volume.listVolumesOnDisk({ diskNumber });
  const [volumeId] = volumeIds;
  if (volumeId === undefined)
    throw new Error(`disk ${diskNumber} has no volume after partitioning`);
  // Never format a volume that already has a file system: it may hold the user's data.
  const { formatted } = await volume.isVolumeFormatted({ volumeId });
  if (!formatted)
    await volume.formatVolume({
      volumeId,
      fileSystem: "NTFS",
      ...(request.label === undefined ? {} : { label: request.label }),
    });
  await filesystem.mkdir({ path: request.stagingPath });
  await volume.mountVolume({ volumeId, targetPath: request.stagingPath });
  return { diskNumber, volumeId };
}

/**
 * The volume mounted at `stagingPath` when it is `diskNumber`'s (a completed stage), or undefined
 * when nothing is mounted there yet. A volume of another disk there is refused, never mounted over.
 */
export async function stagedVolume(
  groups: NodeGroups,
  stagingPath: string,
  diskNumber: number,
): Promise<string | undefined> {
  const { volume, filesystem } = groups;
  if (!(await filesystem.pathExists({ path: stagingPath })).exists) return undefined;
  let volumeId: string;
  try {
    ({ volumeId } = await volume.getVolumeIdFromTargetPath({ targetPath: stagingPath }));
  } catch (error) {
    // A folder with nothing mounted on it: a stage that stopped before its mount.
    if (isCsiProxyError(error) && error.code === "NOT_FOUND") return undefined;
    throw error;
  }
  const mounted = await volume.getDiskNumberFromVolumeId({ volumeId });
  if (mounted.diskNumber !== diskNumber) {
    throw new CsiProxyError(
      `${stagingPath} already holds a volume of disk ${mounted.diskNumber}, not of disk ${diskNumber}.`,
      { code: "FAILED_PRECONDITION" },
    );
  }
  return volumeId;
}

/** NodeUnstageVolume for a block volume: unmount `stagingPath` and remove the folder. */
export async function unstageBlockVolume(
  groups: NodeGroups,
  request: { readonly stagingPath: string },
): Promise<{ wasMounted: boolean }> {
  const { volume, filesystem } = groups;
  const { exists } = await filesystem.pathExists({ path: request.stagingPath });
  if (!exists) return { wasMounted: false }; // a retry after a completed unstage
  let volumeId: string;
  try {
    ({ volumeId } = await volume.getVolumeIdFromTargetPath({ targetPath: request.stagingPath }));
  } catch (error) {
    // The folder is there but nothing is mounted on it: an unstage that stopped half-way.
    if (!isCsiProxyError(error) || error.code !== "NOT_FOUND") throw error;
    await filesystem.rmdir({ path: request.stagingPath });
    return { wasMounted: false };
  }
  const { wasMounted } = await volume.unmountVolume({
    volumeId,
    targetPath: request.stagingPath,
  });
  await filesystem.rmdir({ path: request.stagingPath });
  return { wasMounted };
}

/** NodeStageVolume for an SMB share: a global mapping with the secret's credentials, linked at `stagingPath`. */
export async function stageSmbVolume(
  groups: NodeGroups,
  request: {
    readonly source: string;
    readonly stagingPath: string;
    readonly username: string;
    readonly password: string;
  },
): Promise<void> {
  await groups.smb.newSmbGlobalMapping({
    remotePath: request.source,
    localPath: request.stagingPath,
    username: request.username,
    password: request.password,
  });
}

/** NodeUnstageVolume for an SMB share: remove the link, then the mapping (the share's files stay). */
export async function unstageSmbVolume(
  groups: NodeGroups,
  request: { readonly source: string; readonly stagingPath: string },
): Promise<void> {
  await groups.filesystem.rmdir({ path: request.stagingPath, force: true });
  await groups.smb.removeSmbGlobalMapping({ remotePath: request.source });
}
