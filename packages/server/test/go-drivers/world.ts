// One simulated node with what each Go driver's cloud would attach to it (go-drivers.md): an EBS
// volume (NVMe, serial `vol<id>_00000001.`), a GCE persistent disk (page 83 T10 id
// `Google  <device name>`), an Azure data disk at a LUN (Hyper-V NAA id `60022480...`), a vSphere
// VMDK (NAA `6000c29...`, the driver's `diskUUID`), and an Azure Files share.
import { demoNodeWorld, scenarios, type ScenarioSpec } from "@csi-proxy/winsim";

const GiB = 1024 ** 3;

/** The EBS volume aws-ebs-csi-driver is asked to stage. */
export const ebs = {
  volumeId: "vol-0a1b2c3d4e5f6a7b8",
  serialNumber: "vol0a1b2c3d4e5f6a7b8_00000001.",
  diskNumber: 11,
  size: 4 * GiB,
  grownSize: 6 * GiB,
} as const;

/** The persistent disk gce-pd finds by the device name at the end of its page 83 id. */
export const gce = {
  deviceName: "pvc-4c1d8e2a-6f3b-4a90-9d57-0e8b2f1c7a36",
  diskNumber: 12,
  size: 4 * GiB,
  grownSize: 5 * GiB,
} as const;

/** The Azure data disk azuredisk finds by the publish context's LUN. */
export const azureDisk = { lun: "2", diskNumber: 13, size: 4 * GiB } as const;

/** The VMDK vSphere finds by its page 83 id, the publish context's `diskUUID`. */
export const vsphere = {
  diskUuid: "6000c29d1e2f3a4b5c6d7e8f9a0b1c2d",
  diskNumber: 14,
  size: 4 * GiB,
  grownSize: 5 * GiB,
} as const;

/** The Azure Files share azurefile maps, with the storage account's key. */
export const azureFiles = {
  server: "stcsiwin01.file.core.windows.net",
  share: "\\\\stcsiwin01.file.core.windows.net\\pvc-shared",
  username: "AZURE\\stcsiwin01",
  accountKey: "dGVzdC1rZXktbm90LWEtc2VjcmV0LWF6dXJlLWZpbGVzLWtleS0wMDAwMDAwMDAwMDAwMDAwMDA=",
} as const;

/** vSphere's VM: Win32_BIOS's serial is `VMware-` and the VM UUID's bytes. */
export const biosSerial = demoNodeWorld.biosSerial;

/** The node: the system disk, the four clouds' disks (blank, as attached) and the share. */
export function goDriversNode(): ScenarioSpec {
  return {
    ...scenarios.minimal(),
    seed: "go-drivers",
    disks: [
      { number: ebs.diskNumber, size: ebs.size, busType: "NVMe", serialNumber: ebs.serialNumber },
      {
        number: gce.diskNumber,
        size: gce.size,
        busType: "SCSI",
        page83: { ascii: `Google  ${gce.deviceName}` },
      },
      { number: azureDisk.diskNumber, size: azureDisk.size, busType: "SAS", lun: 2 },
      {
        number: vsphere.diskNumber,
        size: vsphere.size,
        busType: "SAS",
        page83: { naa: vsphere.diskUuid },
      },
    ],
    smb: {
      servers: [
        {
          name: azureFiles.server,
          accounts: { [azureFiles.username]: azureFiles.accountKey },
          shares: ["pvc-shared"],
        },
      ],
    },
    system: { bios: { serialNumber: `${biosSerial}   ` } },
  };
}
