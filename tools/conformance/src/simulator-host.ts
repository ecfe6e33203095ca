import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createNodeSmbLinkHost } from "@csi-proxy/smb";
import {
  defaultServiceSpecs,
  iscsiHostNameResolver,
  Simulator,
  smbShareDir,
  translateUncLinks,
  windowsFilesystemHost,
  type ScenarioSpec,
} from "@csi-proxy/winsim";
import type { ConformanceHost, IscsiTargetResource } from "./host.js";
import { generateSecrets, runTag } from "./secrets.js";

const GiB = 1024 ** 3;
/** Just above 2^53 and a whole number of MiB, so the state file stores it exactly. */
const hugeBytes = 2 ** 53 + 2 ** 20;
const serverName = "winsim-node";

/** The simulator's stand-in for what windows/setup.ps1 creates on a real machine. */
export async function createSimulatorHost(executable: string): Promise<ConformanceHost> {
  const secrets = generateSecrets();
  const tag = runTag();
  const share = `csi-${tag}`;
  const username = `${serverName.toUpperCase()}\\csi-${tag}`;
  // Windows' iSCSI Target Server names targets iqn.1991-05.com.microsoft:<computer>-<name>-target.
  const target = (name: string, chapSecret: string): IscsiTargetResource => ({
    iqn: `iqn.1991-05.com.microsoft:${serverName}-csi-${tag}-${name}-target`,
    chapUsername: `csi-${tag}-${name}`,
    chapSecret,
    lunBytes: GiB,
  });
  const oneWay = target("a", secrets.chapSecret);
  const mutual = target("b", secrets.mutualTargetChapSecret);
  const lun = (naa: string) => ({ size: GiB, busType: "iSCSI" as const, page83: { naa } });
  const spec: ScenarioSpec = {
    disks: [
      { size: GiB, lun: 1, busType: "SAS", page83: { naa: "60022480aa11bb22cc33dd44ee55ff01" } },
      { size: GiB, lun: 2, busType: "SAS", page83: { naa: "60022480aa11bb22cc33dd44ee55ff02" } },
      { size: hugeBytes, lun: 3, busType: "SAS" },
    ],
    smb: {
      servers: [
        { name: serverName, accounts: { [username]: secrets.smbPassword }, shares: [share] },
      ],
    },
    iscsi: {
      // Declared by IP; `localhost` resolves to ::1 and 127.0.0.1 in the simulator's name table.
      servers: [
        {
          address: "127.0.0.1",
          targets: [
            {
              iqn: oneWay.iqn,
              chap: { username: oneWay.chapUsername, secret: oneWay.chapSecret },
              luns: [lun("6001405f0a1b2c3d4e5f60718293a401")],
            },
            {
              iqn: mutual.iqn,
              chap: { username: mutual.chapUsername, secret: mutual.chapSecret },
              mutualChapSecret: secrets.mutualSecret,
              luns: [lun("6001405f0a1b2c3d4e5f60718293a402")],
            },
          ],
        },
      ],
    },
    // setup.ps1 starts the initiator service; so does this host.
    system: {
      services: defaultServiceSpecs().map((s) =>
        s.name === "MSiSCSI" ? { ...s, status: "Running" as const } : s,
      ),
    },
  };
  const sim = await Simulator.create(spec);
  const disks = sim.state().disks.filter((d) => d.number !== 0);
  const numberOf = (size: number, lunId: number) =>
    disks.find((d) => d.size === size && d.location?.endsWith(`LUN ${lunId}`))?.number ?? -1;
  const scratchRoot = join(sim.root, "scratch");
  mkdirSync(scratchRoot, { recursive: true });
  mkdirSync(join(smbShareDir(sim, serverName, share), "pvc-1"), { recursive: true });
  return {
    kind: "simulator",
    shellOptions: sim.shellOptions({ executable }),
    pathStyle: "posix",
    scratchRoot,
    filesystemOptions: { host: windowsFilesystemHost(sim) },
    smbOptions: { links: translateUncLinks(sim, createNodeSmbLinkHost()) },
    iscsiOptions: { resolveHostName: iscsiHostNameResolver(sim) },
    blankDisks: [numberOf(GiB, 1), numberOf(GiB, 2)],
    blankDiskBytes: GiB,
    smb: {
      remotePath: `\\\\${serverName}\\${share}`,
      subPath: `\\\\${serverName}\\${share}\\pvc-1`,
      username,
      password: secrets.smbPassword,
      encryption: true,
    },
    iscsi: {
      portal: { targetAddress: "localhost", targetPort: 3260 },
      oneWay,
      mutual,
      mutualSecret: secrets.mutualSecret,
    },
    stoppableService: "Spooler",
    hugeDisk: { diskNumber: numberOf(hugeBytes, 3), bytes: BigInt(hugeBytes) },
    growDisk(diskNumber, bytes) {
      sim.update((state) => {
        const disk = state.disks.find((d) => d.number === diskNumber);
        if (disk === undefined) throw new Error(`The simulated host has no disk ${diskNumber}.`);
        disk.size = bytes;
      });
      return Promise.resolve(diskNumber);
    },
    volumeFilePath(volumeId, relative) {
      const guid = /Volume\{([0-9a-fA-F-]+)\}/.exec(volumeId)?.[1];
      if (guid === undefined) throw new Error(`Not a volume id: ${volumeId}`);
      return join(sim.volumeDir(guid.toLowerCase()), relative);
    },
    cmdletCalls: () => sim.calls(),
    teardown: () => sim.dispose(),
  };
}
