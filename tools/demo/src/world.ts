import { scenarios, type ScenarioSpec } from "@csi-proxy/winsim";

const GiB = 1024 ** 3;

/** The storage array, file server and credentials of the demo's simulated data center. */
export const world = {
  portal: { targetAddress: "10.20.0.5", targetPort: 3260 },
  iqn: "iqn.2003-01.org.linux-iscsi.array1:pvc-6f1c2a",
  chap: { username: "node-7", secret: "chap-secret-42" },
  lunBytes: 8 * GiB,
  grownLunBytes: 12 * GiB,
  share: "\\\\files.example.com\\projects",
  shareSubPath: "\\\\files.example.com\\projects\\team-a",
  smbUser: "EXAMPLE\\csi-node",
  smbPassword: "smb-pa$$word'\u2019;",
  biosSerial: "VMware-42 1c 5e 0f 8a 9e 3b d4-21 8f 77 0e 5c 2a 91 b3",
} as const;

/** The demo host: the varied disks of `scenarios.demo()`, plus an array, a file server and services. */
export function demoScenario(): ScenarioSpec {
  return {
    ...scenarios.demo(),
    iscsi: {
      servers: [
        {
          address: world.portal.targetAddress,
          port: world.portal.targetPort,
          targets: [
            {
              iqn: world.iqn,
              chap: { username: world.chap.username, secret: world.chap.secret },
              luns: [
                {
                  size: world.lunBytes,
                  busType: "iSCSI",
                  page83: { naa: "6001405a1b2c3d4e5f60718293a4b5c6" },
                },
              ],
            },
          ],
        },
      ],
    },
    smb: {
      servers: [
        {
          name: "files.example.com",
          accounts: { [world.smbUser]: world.smbPassword },
          shares: ["projects"],
        },
      ],
    },
    system: {
      bios: { serialNumber: `${world.biosSerial}   ` },
    },
  };
}
