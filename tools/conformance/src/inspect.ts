import type { Disk } from "@csi-proxy/disk";
import type { Iscsi } from "@csi-proxy/iscsi";
import type { Smb } from "@csi-proxy/smb";
import type { System } from "@csi-proxy/system";
import type { Volume } from "@csi-proxy/volume";

/** The groups read-only inspection uses; Filesystem is left out (it reads no host state). */
export interface InspectGroups {
  readonly disk: Disk;
  readonly volume: Volume;
  readonly smb: Smb;
  readonly iscsi: Iscsi;
  readonly system: System;
}

/** What one method answered, or the error it threw (so one failure does not hide the rest). */
export type Answer<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export interface InspectedVolume {
  readonly volumeId: string;
  readonly formatted: Answer<boolean>;
  readonly stats: Answer<{ totalBytes: string; usedBytes: string }>;
}

export interface InspectedDisk {
  readonly diskNumber: number;
  readonly page83: string | null;
  readonly serialNumber: string | null;
  readonly location: string | null;
  readonly online: Answer<boolean>;
  readonly totalBytes: Answer<string>;
  readonly volumes: Answer<InspectedVolume[]>;
}

/** What this library sees on a node. Sizes are decimal strings (exact, whatever their size). */
export interface InspectReport {
  readonly biosSerialNumber: Answer<string>;
  readonly iscsiInitiatorService: Answer<string>;
  readonly disks: InspectedDisk[];
  readonly unreadableDisks: { diskNumber: number | null; message: string }[];
  readonly smbMappings: Answer<{ remotePath: string; status: string }[]>;
  readonly iscsiPortals: Answer<{ address: string; port: number }[]>;
  /** Disks of the sessions to each target named in `iqns`, through each registered portal. */
  readonly iscsiSessions: { iqn: string; portal: string; disks: Answer<number[]> }[];
}

async function answer<T>(read: () => Promise<T>): Promise<Answer<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

async function inspectVolume(volume: Volume, volumeId: string): Promise<InspectedVolume> {
  return {
    volumeId,
    formatted: await answer(async () => (await volume.isVolumeFormatted({ volumeId })).formatted),
    stats: await answer(async () => {
      const stats = await volume.getVolumeStats({ volumeId });
      return { totalBytes: String(stats.totalBytes), usedBytes: String(stats.usedBytes) };
    }),
  };
}

/**
 * Lists disks, volumes, SMB mappings, iSCSI portals and sessions through this library's
 * read-only methods only: nothing here changes the node (a test holds it to Get-* cmdlets).
 * Discovery and rescans change state on Windows, so they are not used; the public API has no
 * "every session" method, so sessions are looked up for the IQNs the operator names.
 */
export async function inspect(
  groups: InspectGroups,
  iqns: readonly string[] = [],
): Promise<InspectReport> {
  const { disk, volume, smb, iscsi, system } = groups;
  const [ids, locations] = await Promise.all([disk.listDiskIds(), disk.listDiskLocations()]);
  const numbers = new Set<number>([...ids.diskIds.keys(), ...locations.diskLocations.keys()]);
  const disks: InspectedDisk[] = [];
  for (const diskNumber of [...numbers].sort((a, b) => a - b)) {
    const id = ids.diskIds.get(diskNumber);
    const location = locations.diskLocations.get(diskNumber);
    disks.push({
      diskNumber,
      page83: id?.page83 ?? null,
      serialNumber: id?.serialNumber ?? null,
      location:
        location === undefined
          ? null
          : `Adapter ${location.adapter} : Bus ${location.bus} : Target ${location.target} : LUN ${location.lunId}`,
      online: await answer(async () => (await disk.getDiskState({ diskNumber })).isOnline),
      totalBytes: await answer(async () =>
        String((await disk.getDiskStats({ diskNumber })).totalBytes),
      ),
      volumes: await answer(async () => {
        const { volumeIds } = await volume.listVolumesOnDisk({ diskNumber });
        const found: InspectedVolume[] = [];
        for (const volumeId of volumeIds) found.push(await inspectVolume(volume, volumeId));
        return found;
      }),
    });
  }
  const portals = await answer(async () =>
    (await iscsi.listTargetPortals()).targetPortals.map((p) => ({
      address: p.targetAddress,
      port: p.targetPort,
    })),
  );
  const iscsiSessions: InspectReport["iscsiSessions"] = [];
  for (const portal of portals.ok ? portals.value : []) {
    for (const iqn of iqns) {
      const targetPortal = { targetAddress: portal.address, targetPort: portal.port };
      iscsiSessions.push({
        iqn,
        portal: `${portal.address}:${portal.port}`,
        disks: await answer(async () => [
          ...(await iscsi.getTargetDisks({ targetPortal, iqn })).diskIds,
        ]),
      });
    }
  }
  return {
    biosSerialNumber: await answer(async () => (await system.getBiosSerialNumber()).serialNumber),
    iscsiInitiatorService: await answer(async () => {
      const service = await system.getService({ name: "MSiSCSI" });
      return `${service.statusName} (${service.startTypeName})`;
    }),
    disks,
    unreadableDisks: ids.errors.map((e) => ({ diskNumber: e.diskNumber, message: e.message })),
    smbMappings: await answer(async () =>
      (await smb.listSmbGlobalMappings()).mappings.map((m) => ({
        remotePath: m.remotePath,
        status: m.status,
      })),
    ),
    iscsiPortals: portals,
    iscsiSessions,
  };
}
