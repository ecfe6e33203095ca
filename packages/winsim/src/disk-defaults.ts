import type { DeviceIdState } from "./types.js";
import type { Page83Spec } from "./spec.js";

const diskClass = "{53f56307-b6bf-11d0-94f2-00a0c91efb8b}";

/** How a disk of a given bus type identifies itself on a real host (windows-cmdlets.md §9.4, §9.5). */
export interface DiskIdentity {
  friendlyName: string;
  model: string | null;
  manufacturer: string | null;
  serialNumber: string | null;
  uniqueId: string;
  uniqueIdFormat: number;
  path: string;
  location: string | null;
  page83: Page83Spec;
}

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, "0");
}

/** Deterministic per disk number, so scenarios are reproducible. */
export function defaultIdentity(busType: number, number: number, lun: number): DiskIdentity {
  const naa =
    `60022480${hex(0x5f67cbc9 + number, 8)}${hex(0xd232e885 + number * 7, 8)}${hex(lun, 8)}`.toUpperCase();
  if (busType === 17) {
    const eui = `002538${hex(0x463140 + number, 6)}${hex(0xf11c + number, 4)}`.toUpperCase();
    return {
      friendlyName: "NVMe Samsung SSD 970",
      model: "Samsung SSD 970 EVO Plus 1TB",
      manufacturer: null,
      serialNumber: `${eui.slice(0, 4)}_${eui.slice(4, 8)}_${eui.slice(8, 12)}_${eui.slice(12, 16)}.`,
      uniqueId: `eui.${eui}`,
      uniqueIdFormat: 2,
      path: `\\\\?\\scsi#disk&ven_nvme&prod_samsung_ssd_970#5&2075d53c&0&${hex(number, 6)}#${diskClass}`,
      location: `Integrated : Bus 0 : Device 29 : Function ${number} : Adapter 1 : Port 0 : Target 0 : LUN 0`,
      page83: { eui64: eui },
    };
  }
  if (busType === 15) {
    return {
      friendlyName: "Msft Virtual Disk",
      model: "Virtual Disk",
      manufacturer: "Msft",
      serialNumber: null,
      uniqueId:
        `4D53465420202020${hex(0x328d59b3 + number, 8)}60875845AC645473BE8267BF`.toUpperCase(),
      uniqueIdFormat: 0,
      path: `\\\\?\\scsi#disk&ven_msft&prod_virtual_disk#2&1f4adffe&0&${hex(number, 6)}#${diskClass}`,
      location: null,
      page83: {
        vendorSpecificHex: `4d53465420202020${hex(0x328d59b3 + number, 8)}60875845ac645473be8267bf`,
      },
    };
  }
  if (busType === 3 || busType === 11) {
    return {
      friendlyName: "Samsung SSD 860 EVO 500GB",
      model: "Samsung SSD 860 EVO 500GB",
      manufacturer: null,
      serialNumber: `S3Z1NB0K${hex(0x400000 + number, 6).toUpperCase()}`,
      uniqueId: `5002538E${hex(0x30834143 + number, 8).toUpperCase()}`,
      uniqueIdFormat: 3,
      path: `\\\\?\\scsi#disk&ven_samsung&prod_ssd#4&632e028&0&${hex(number, 6)}#${diskClass}`,
      location: `Integrated : Bus 0 : Device 23 : Function 0 : Adapter 0 : Port ${number} : Target 0 : LUN 0`,
      page83: { naa: `5002538e${hex(0x30834143 + number, 8)}` },
    };
  }
  return {
    friendlyName: "Msft Virtual Disk",
    model: "Virtual Disk",
    manufacturer: "Msft",
    serialNumber: null,
    uniqueId: naa,
    uniqueIdFormat: 3,
    path: `\\\\?\\scsi#disk&ven_msft&prod_virtual_disk#${hex(number, 6)}#${diskClass}`,
    location: `PCI Slot 3 : Adapter 0 : Port 0 : Target 0 : LUN ${lun}`,
    page83: { naa },
  };
}

/** Encodes a page 83 spec as the identifiers state.json stores. */
export function deviceIds(spec: Page83Spec): DeviceIdState[] {
  if (Array.isArray(spec)) return spec.map((id: DeviceIdState) => ({ ...id }));
  if ("naa" in spec) return [{ codeSet: 1, type: 3, association: 0, hex: spec.naa.toLowerCase() }];
  if ("eui64" in spec)
    return [{ codeSet: 1, type: 2, association: 0, hex: spec.eui64.toLowerCase() }];
  if ("ascii" in spec) {
    return [
      {
        codeSet: 2,
        type: 1,
        association: 0,
        hex: Buffer.from(spec.ascii, "latin1").toString("hex"),
      },
    ];
  }
  if ("vendorSpecificHex" in spec) {
    return [{ codeSet: 1, type: 0, association: 0, hex: spec.vendorSpecificHex.toLowerCase() }];
  }
  return [];
}
