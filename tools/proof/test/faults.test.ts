import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Disk } from "@csi-proxy/disk";
import { Iscsi } from "@csi-proxy/iscsi";
import { createNodeSmbLinkHost, Smb } from "@csi-proxy/smb";
import { System } from "@csi-proxy/system";
import { childPids, describeWithPwsh } from "@csi-proxy/test-utils";
import { Volume } from "@csi-proxy/volume";
import { translateUncLinks, type SimState, type Simulator } from "@csi-proxy/winsim";
import { describe, expect, it } from "vitest";
import { faultMatrix } from "./fault-matrix.js";

const gib = 1024 ** 3;
const mib = 1024 ** 2;

/** The volume id of the first volume on `disk`. */
function volumeIdOf(sim: Simulator, disk: number): string {
  const guid = sim.state().partitions.find((p) => p.diskNumber === disk && p.volume !== null);
  return `\\\\?\\Volume{${guid?.volume ?? ""}}\\`;
}

/** Puts the storage part of the state back to a snapshot (partitionDisk changes it). */
function restoreStorage(sim: Simulator, snapshot: SimState): void {
  sim.update((state) => {
    state.disks = structuredClone(snapshot.disks);
    state.partitions = structuredClone(snapshot.partitions);
    state.volumes = structuredClone(snapshot.volumes);
  });
}

/** Puts a disk's partition and volume sizes back to the scenario's 1 GiB (resizeVolume grows them). */
function restoreSizes(sim: Simulator, disk: number): void {
  sim.update((state) => {
    const partition = state.partitions.find((p) => p.diskNumber === disk && p.volume !== null);
    const volume = state.volumes.find((v) => v.guid === partition?.volume);
    if (partition === undefined || volume === undefined)
      throw new Error(`disk ${disk} has no volume`);
    partition.size = gib;
    volume.size = gib;
  });
}

// Disk: one GPT data disk with a page-83 id, one RAW disk for partitionDisk.
const page83 = "FAULT-MATRIX-DISK-1";
const diskMatrix = faultMatrix<{ disk: Disk; snapshot: SimState }>({
  group: "Disk",
  scenario: {
    disks: [
      {
        number: 1,
        size: gib,
        partitionStyle: "GPT",
        page83: { ascii: page83 },
        partitions: [{ fileSystem: "NTFS" }],
      },
      { number: 2, size: gib },
    ],
  },
  hostError: {
    message: "General failure.",
    errorId: "StorageWMI 4",
    category: "NotSpecified",
    exceptionType: "Microsoft.Management.Infrastructure.CimException",
  },
  build: (sim, shell) => ({ disk: new Disk({ shell }), snapshot: sim.state() }),
  cases: [
    {
      method: "listDiskLocations",
      cmdlet: "Get-Disk",
      code: "COMMAND_FAILED",
      call: ({ disk }) => disk.listDiskLocations(),
    },
    {
      method: "partitionDisk",
      cmdlet: "Get-Disk",
      code: "COMMAND_FAILED",
      call: ({ disk }) => disk.partitionDisk({ diskNumber: 2 }),
      reset: ({ snapshot }, sim) => Promise.resolve(restoreStorage(sim, snapshot)),
    },
    {
      method: "rescan",
      cmdlet: "Update-HostStorageCache",
      code: "COMMAND_FAILED",
      call: ({ disk }) => disk.rescan(),
    },
    {
      method: "listDiskIds",
      cmdlet: "Get-Disk",
      code: "COMMAND_FAILED",
      call: ({ disk }) => disk.listDiskIds(),
    },
    {
      method: "getDiskStats",
      cmdlet: "Get-Disk",
      code: "COMMAND_FAILED",
      call: ({ disk }) => disk.getDiskStats({ diskNumber: 1 }),
    },
    {
      method: "setDiskState",
      cmdlet: "Get-Disk",
      code: "COMMAND_FAILED",
      call: ({ disk }) => disk.setDiskState({ diskNumber: 1, isOnline: true }),
    },
    {
      method: "getDiskState",
      cmdlet: "Get-Disk",
      code: "COMMAND_FAILED",
      call: ({ disk }) => disk.getDiskState({ diskNumber: 1 }),
    },
    {
      method: "getDiskNumberByPage83",
      cmdlet: "Get-Disk",
      code: "COMMAND_FAILED",
      call: ({ disk }) => disk.getDiskNumberByPage83({ page83 }),
    },
  ],
});

// Volume: disk 1's volume is mounted, resized and formatted; disk 2's stays mounted at `fixed`.
interface VolumeGroups {
  volume: Volume;
  id: string;
  fixedId: string;
  mount: string;
  fixed: string;
}
const volumeMatrix = faultMatrix<VolumeGroups>({
  group: "Volume",
  scenario: {
    disks: [1, 2].map((number) => ({
      number,
      size: 2 * gib,
      partitionStyle: "GPT" as const,
      partitions: [{ size: gib, fileSystem: "NTFS" as const }],
    })),
  },
  hostError: {
    message: "General failure.",
    errorId: "StorageWMI 4",
    category: "NotSpecified",
    exceptionType: "Microsoft.Management.Infrastructure.CimException",
  },
  build: async (sim, shell) => {
    const volume = new Volume({ shell, pathStyle: "posix" });
    const mount = join(sim.root, "mnt", "a");
    const fixed = join(sim.root, "mnt", "fixed");
    mkdirSync(mount, { recursive: true });
    mkdirSync(fixed, { recursive: true });
    const fixedId = volumeIdOf(sim, 2);
    await volume.mountVolume({ volumeId: fixedId, targetPath: fixed });
    return { volume, id: volumeIdOf(sim, 1), fixedId, mount, fixed };
  },
  cases: [
    {
      method: "listVolumesOnDisk",
      cmdlet: "Get-Disk",
      code: "COMMAND_FAILED",
      call: ({ volume }) => volume.listVolumesOnDisk({ diskNumber: 1 }),
    },
    {
      method: "mountVolume",
      cmdlet: "Get-Volume",
      code: "COMMAND_FAILED",
      call: ({ volume, id, mount }) => volume.mountVolume({ volumeId: id, targetPath: mount }),
      reset: ({ volume, id, mount }) => volume.unmountVolume({ volumeId: id, targetPath: mount }),
    },
    {
      method: "unmountVolume",
      cmdlet: "Get-Volume",
      code: "COMMAND_FAILED",
      call: ({ volume, id, mount }) => volume.unmountVolume({ volumeId: id, targetPath: mount }),
      reset: ({ volume, id, mount }) => volume.mountVolume({ volumeId: id, targetPath: mount }),
    },
    {
      method: "isVolumeFormatted",
      cmdlet: "Get-Volume",
      code: "COMMAND_FAILED",
      call: ({ volume, id }) => volume.isVolumeFormatted({ volumeId: id }),
    },
    {
      method: "formatVolume",
      cmdlet: "Get-Volume",
      code: "COMMAND_FAILED",
      call: ({ volume, id }) => volume.formatVolume({ volumeId: id, label: "fm" }),
    },
    {
      method: "resizeVolume",
      // The Storage cache is refreshed before anything is read (aws-ebs-csi-driver#2881).
      cmdlet: "Update-HostStorageCache",
      code: "COMMAND_FAILED",
      call: ({ volume, id }) => volume.resizeVolume({ volumeId: id, sizeBytes: gib + 512 * mib }),
      reset: (_groups, sim) => Promise.resolve(restoreSizes(sim, 1)),
    },
    {
      method: "getVolumeStats",
      cmdlet: "Get-Volume",
      code: "COMMAND_FAILED",
      call: ({ volume, id }) => volume.getVolumeStats({ volumeId: id }),
    },
    {
      method: "getDiskNumberFromVolumeId",
      cmdlet: "Get-Volume",
      code: "COMMAND_FAILED",
      call: ({ volume, id }) => volume.getDiskNumberFromVolumeId({ volumeId: id }),
    },
    {
      method: "getVolumeIdFromTargetPath",
      cmdlet: "Get-Item",
      code: "COMMAND_FAILED",
      call: ({ volume, fixed }) => volume.getVolumeIdFromTargetPath({ targetPath: fixed }),
    },
    {
      method: "getClosestVolumeIdFromTargetPath",
      cmdlet: "Get-Partition",
      code: "COMMAND_FAILED",
      call: ({ volume, fixed }) => volume.getClosestVolumeIdFromTargetPath({ targetPath: fixed }),
    },
    {
      method: "writeVolumeCache",
      cmdlet: "Get-Volume",
      code: "COMMAND_FAILED",
      call: ({ volume, id }) => volume.writeVolumeCache({ volumeId: id }),
    },
    {
      method: "listVolumeMountPoints",
      cmdlet: "Get-Volume",
      code: "COMMAND_FAILED",
      call: ({ volume, id }) => volume.listVolumeMountPoints({ volumeId: id }),
    },
  ],
});

// SMB: one server, one share, one account; no local path, so no links.
const remotePath = "\\\\fs1\\data";
const credentials = { username: "CONTOSO\\alice", password: "pw-alice-1" };
const smbMatrix = faultMatrix<Smb>({
  group: "Smb",
  scenario: {
    smb: {
      servers: [
        {
          name: "fs1",
          accounts: { [credentials.username]: credentials.password },
          shares: ["data"],
        },
      ],
    },
  },
  hostError: {
    message: "A device attached to the system is not functioning.",
    errorId: "Windows System Error 31",
    category: "NotSpecified",
    exceptionType: "Microsoft.Management.Infrastructure.CimException",
  },
  build: (sim, shell) =>
    new Smb({ shell, links: translateUncLinks(sim, createNodeSmbLinkHost()), pathStyle: "posix" }),
  cases: [
    {
      method: "newSmbGlobalMapping",
      cmdlet: "Get-SmbGlobalMapping",
      code: "COMMAND_FAILED",
      call: (smb) => smb.newSmbGlobalMapping({ remotePath, ...credentials }),
      reset: (smb) => smb.removeSmbGlobalMapping({ remotePath }),
    },
    {
      method: "removeSmbGlobalMapping",
      cmdlet: "Get-SmbGlobalMapping",
      code: "COMMAND_FAILED",
      call: (smb) => smb.removeSmbGlobalMapping({ remotePath }),
      reset: (smb) => smb.newSmbGlobalMapping({ remotePath, ...credentials }),
    },
    {
      method: "listSmbGlobalMappings",
      cmdlet: "Get-SmbGlobalMapping",
      code: "COMMAND_FAILED",
      call: (smb) => smb.listSmbGlobalMappings(),
      reset: (smb) => smb.newSmbGlobalMapping({ remotePath, ...credentials }),
    },
  ],
});

// iSCSI: one portal, one target without CHAP.
const address = "10.0.0.5";
const targetPortal = { targetAddress: address, targetPort: 3260 };
const iqn = "iqn.2003-01.org.example.array:faults";
const iscsiMatrix = faultMatrix<Iscsi>({
  group: "Iscsi",
  scenario: {
    iscsi: { servers: [{ address, targets: [{ iqn, luns: [] }] }], portals: [{ address }] },
  },
  hostError: {
    message: "Generic failure",
    errorId: "HRESULT 0x80041001",
    category: "NotSpecified",
    exceptionType: "Microsoft.Management.Infrastructure.CimException",
  },
  build: (_sim, shell) => new Iscsi({ shell }),
  cases: [
    {
      method: "addTargetPortal",
      cmdlet: "Get-IscsiTargetPortal",
      code: "COMMAND_FAILED",
      call: (iscsi) => iscsi.addTargetPortal({ targetPortal }),
    },
    {
      method: "discoverTargetPortal",
      cmdlet: "Get-IscsiTargetPortal",
      code: "COMMAND_FAILED",
      call: (iscsi) => iscsi.discoverTargetPortal({ targetPortal }),
    },
    {
      method: "listTargetPortals",
      cmdlet: "Get-IscsiTargetPortal",
      code: "COMMAND_FAILED",
      call: (iscsi) => iscsi.listTargetPortals(),
    },
    {
      method: "connectTarget",
      cmdlet: "Get-IscsiTargetPortal",
      code: "COMMAND_FAILED",
      call: (iscsi) => iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" }),
      reset: (iscsi) => iscsi.disconnectTarget({ targetPortal, iqn }),
    },
    {
      method: "getTargetDisks",
      cmdlet: "Get-IscsiSession",
      code: "COMMAND_FAILED",
      call: (iscsi) => iscsi.getTargetDisks({ targetPortal, iqn }),
      reset: (iscsi) => iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" }),
    },
    {
      method: "disconnectTarget",
      cmdlet: "Get-IscsiSession",
      code: "COMMAND_FAILED",
      call: (iscsi) => iscsi.disconnectTarget({ targetPortal, iqn }),
      reset: (iscsi) => iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" }),
    },
    {
      method: "setMutualChapSecret",
      cmdlet: "Set-IscsiChapSecret",
      code: "COMMAND_FAILED",
      call: (iscsi) => iscsi.setMutualChapSecret({ mutualChapSecret: "twelve-bytes" }),
    },
    {
      method: "removeTargetPortal",
      cmdlet: "Get-IscsiTargetPortal",
      code: "COMMAND_FAILED",
      call: (iscsi) => iscsi.removeTargetPortal({ targetPortal }),
      reset: (iscsi) => iscsi.addTargetPortal({ targetPortal }),
    },
  ],
});

// System: the default BIOS and services.
const service = "W32Time";
const systemMatrix = faultMatrix<System>({
  group: "System",
  scenario: {},
  hostError: {
    message: "Cannot open W32Time service on computer '.'.",
    errorId: "CouldNotOpenService",
    category: "OpenError",
    exceptionType: "System.Exception",
  },
  build: (_sim, shell) => new System({ shell }),
  cases: [
    {
      method: "getBiosSerialNumber",
      cmdlet: "Get-CimInstance",
      code: "COMMAND_FAILED",
      call: (system) => system.getBiosSerialNumber(),
    },
    {
      method: "getService",
      cmdlet: "Get-Service",
      code: "COMMAND_FAILED",
      call: (system) => system.getService({ name: service }),
    },
    {
      method: "startService",
      cmdlet: "Get-Service",
      code: "COMMAND_FAILED",
      call: (system) => system.startService({ name: service }),
      reset: (system) => system.stopService({ name: service }),
    },
    {
      method: "stopService",
      cmdlet: "Get-Service",
      code: "COMMAND_FAILED",
      call: (system) => system.stopService({ name: service }),
      reset: (system) => system.startService({ name: service }),
    },
  ],
});

describeWithPwsh("faults: every PowerShell-backed method meets every fault", (pwsh) => {
  // Two lanes (the runners have two cores): the lanes run at once, the groups in a lane in turn.
  describe.concurrent("lane 1", () => {
    for (const declare of [diskMatrix, iscsiMatrix]) declare(pwsh);
  });
  describe.concurrent("lane 2", () => {
    for (const declare of [volumeMatrix, smbMatrix, systemMatrix]) declare(pwsh);
  });
  // Not concurrent, so it runs after every group suite, and after their shells are closed.
  describe("nothing is left behind", () => {
    it("no child process of the test process outlives shell.close()", () => {
      expect(childPids()).toEqual([]);
    });
  });
});
