import type { ScenarioSpec } from "./spec.js";

const GiB = 1024 ** 3;

/**
 * The storage array, file server and credentials of the demo node's simulated data center
 * (`scenarios.demoNode()`): what a driver would be told by its controller and secrets.
 */
export const demoNodeWorld = {
  /** The iSCSI array's portal. */
  portal: {
    /** The array's IP address. */
    targetAddress: "10.20.0.5",
    /** The iSCSI port. */
    targetPort: 3260,
  },
  /** The one target the array offers, with one LUN. */
  iqn: "iqn.2003-01.org.linux-iscsi.array1:pvc-6f1c2a",
  /** The target's CHAP credentials (one-way). */
  chap: {
    /** The CHAP user name. */
    username: "node-7",
    /** The CHAP secret (12 to 16 bytes, as Windows requires). */
    secret: "chap-secret-42",
  },
  /** The LUN's size. */
  lunBytes: 8 * GiB,
  /** A size to grow the LUN to in expansion tests. */
  grownLunBytes: 12 * GiB,
  /** The SMB share the file server offers. */
  share: "\\\\files.example.com\\projects",
  /** A folder inside the share. */
  shareSubPath: "\\\\files.example.com\\projects\\team-a",
  /** The account the file server accepts. */
  smbUser: "EXAMPLE\\csi-node",
  /** That account's password (quotes and a typographic apostrophe, to catch quoting bugs). */
  smbPassword: "smb-pa$$word'\u2019;",
  /** The BIOS serial number (Win32_BIOS pads it with spaces). */
  biosSerial: "VMware-42 1c 5e 0f 8a 9e 3b d4-21 8f 77 0e 5c 2a 91 b3",
} as const;

/**
 * A whole node: the varied disks of `demo` plus an iSCSI array (one CHAP-protected target with an
 * 8 GiB LUN), an SMB file server with one share and account, and a BIOS serial. The names and
 * secrets are in {@link demoNodeWorld}.
 */
export function demoNodeScenario(disks: ScenarioSpec): ScenarioSpec {
  const world = demoNodeWorld;
  return {
    ...disks,
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
