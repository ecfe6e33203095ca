// A target's LUN as a Storage disk at rest: built like any scenario disk, numbered at login.
import type { IscsiLunSpec, IscsiLunState } from "./iscsi.js";
import { buildScenario } from "./scenario.js";

const diskClass = "{53f56307-b6bf-11d0-94f2-00a0c91efb8b}";
/** The disk number a LUN carries until a login gives it a real one. */
export const lunPlaceholderNumber = -1;

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, "0");
}

/**
 * Builds a LUN's disk with the scenario builder. Defaults are a Windows iSCSI Target Server
 * virtual disk (MSFT Virtual HD, BusType iSCSI), RAW and offline by the default SAN policy.
 * `serial` numbers LUNs across the scenario so paths and ids stay unique.
 */
export function buildLun(
  spec: IscsiLunSpec,
  index: number,
  serial: number,
  root: string,
): IscsiLunState {
  const lun = spec.lun ?? index;
  if (spec.partitions?.some((p) => (p.accessPaths ?? []).length > 0))
    throw new RangeError("An iSCSI LUN cannot have access paths before it is connected.");
  const naa = `60003ff44dc75adc${hex(0x8a4c0000 + serial, 8)}${hex(lun, 8)}`;
  const built = buildScenario(
    {
      systemDisk: false,
      disks: [
        {
          busType: "iSCSI",
          offline: true,
          offlineReason: "Policy",
          friendlyName: "MSFT Virtual HD",
          model: "Virtual HD",
          manufacturer: "MSFT",
          serialNumber: `6D5F0A9C-3B2E-4F71-8A4C-${hex(serial, 12).toUpperCase()}`,
          uniqueId: naa.toUpperCase(),
          uniqueIdFormat: 3,
          page83: { naa },
          path: `\\\\?\\scsi#disk&ven_msft&prod_virtual_hd#1&1c121344&0&${hex(serial, 6)}#${diskClass}`,
          location: `Integrated : Adapter 2 : Port 0 : Target ${serial} : LUN ${lun}`,
          ...spec,
          number: lunPlaceholderNumber,
        },
      ],
    },
    root,
  ).state;
  const disk = built.disks[0];
  if (disk === undefined) throw new RangeError("The LUN's disk was not built.");
  return { lun, disk, partitions: built.partitions, volumes: built.volumes };
}
