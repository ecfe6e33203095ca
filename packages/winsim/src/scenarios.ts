import { demoNodeScenario } from "./demo-node.js";
import type { ScenarioSpec } from "./spec.js";

const GiB = 1024 * 1024 * 1024;
const sharedSignature = 0xc466e9e6;

/** Ready-made hosts for tests and demos. */
export const scenarios = {
  /** Only the system disk (C: on '/'). */
  minimal(): ScenarioSpec {
    return {};
  },

  /**
   * A varied host: the system disk, a formatted SAS data disk with a blank (space-padded) serial,
   * an NVMe disk with an NVMe-style location, a VHD (File Backed Virtual, null location), a RAW
   * disk at LUN 3 with a page 83 NAA id, an offline read-only SAN disk, and an MBR disk whose
   * signature collides with the VHD's (OfflineReason 4 "Collision").
   */
  demo(): ScenarioSpec {
    return {
      disks: [
        {
          number: 1,
          busType: "SAS",
          lun: 1,
          size: 20 * GiB,
          serialNumber: "                    ",
          partitions: [{ fileSystem: "NTFS", label: "Data" }],
        },
        {
          number: 2,
          busType: "NVMe",
          size: 50 * GiB,
          partitions: [{ fileSystem: "NTFS", driveLetter: "D", label: "Fast" }],
        },
        {
          number: 3,
          busType: "File Backed Virtual",
          size: 4 * GiB,
          partitionStyle: "MBR",
          signature: sharedSignature,
          partitions: [{ fileSystem: "NTFS", driveLetter: "E" }],
        },
        {
          number: 4,
          busType: "SAS",
          lun: 3,
          size: 10 * GiB,
          page83: { naa: "60022480495f67cbc95fd232e88561a7" },
          uniqueId: "60022480495F67CBC95FD232E88561A7",
        },
        {
          number: 5,
          busType: "iSCSI",
          size: 16 * GiB,
          offline: true,
          offlineReason: "Policy",
          readOnly: true,
          friendlyName: "LIO-ORG disk01",
          model: "disk01",
          manufacturer: "LIO-ORG",
          location: null,
        },
        {
          number: 6,
          busType: "SAS",
          lun: 6,
          size: 4 * GiB,
          partitionStyle: "MBR",
          signature: sharedSignature,
          offline: true,
          offlineReason: "Collision",
          partitions: [{ fileSystem: "NTFS" }],
        },
      ],
    };
  },

  /**
   * A whole node for demos, CLIs and driver tests: the disks of `demo()`, plus an iSCSI array
   * (one CHAP-protected target with an 8 GiB LUN), an SMB file server with one share and account,
   * and a BIOS serial. Names and secrets are in `demoNodeWorld`.
   */
  demoNode(): ScenarioSpec {
    return demoNodeScenario(scenarios.demo());
  },
};
