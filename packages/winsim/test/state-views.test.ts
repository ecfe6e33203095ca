import { join } from "node:path";
import { createPowerShell, ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { describe, expect, it } from "vitest";
import {
  diskOf,
  iscsiSessions,
  mountsOf,
  scenarios,
  Simulator,
  volumesOnDisk,
} from "../src/index.js";

describe("friendly views of the raw state", () => {
  it("names a disk's codes", async () => {
    await using sim = await Simulator.create(scenarios.demo());
    expect(sim.disk(5)).toEqual({
      number: 5,
      size: 16 * 1024 ** 3,
      partitionStyle: "RAW",
      operationalStatus: "Offline",
      offlineReason: "Policy",
      busType: "iSCSI",
      isReadOnly: true,
    });
    expect(diskOf(sim.state(), 0)).toMatchObject({
      partitionStyle: "GPT",
      operationalStatus: "Online",
    });
    expect(sim.disk(42)).toBeUndefined();
  });

  it("lists a disk's volumes with ids, file systems and mounts, and a volume's mounts", async () => {
    await using sim = await Simulator.create({
      disks: [
        {
          number: 1,
          partitions: [
            { size: 1024 ** 3, accessPaths: ["pods/a"], label: "data" },
            { fileSystem: "" },
          ],
        },
      ],
    });
    const [data, raw] = sim.volumesOnDisk(1);
    expect(data).toMatchObject({
      diskNumber: 1,
      partitionNumber: 2,
      fileSystem: "NTFS",
      label: "data",
      mounts: [join(sim.root, "pods", "a")],
    });
    expect(data?.volumeId).toBe(`\\\\?\\Volume{${data?.guid ?? ""}}\\`);
    expect(raw).toMatchObject({ partitionNumber: 3, fileSystem: "RAW", mounts: [] });
    expect(sim.mountsOf(data?.volumeId ?? "")).toEqual([join(sim.root, "pods", "a")]);
    expect(mountsOf(sim.state(), data?.guid.toUpperCase() ?? "")).toEqual(data?.mounts);
    expect(volumesOnDisk(sim.state(), 0).find((v) => v.driveLetter === "C")?.mounts).toEqual(["/"]);
  });

  it("has no iSCSI sessions without iSCSI", () => {
    expect(iscsiSessions({ version: 1, disks: [], partitions: [], volumes: [] })).toEqual([]);
  });
});

const iqn = "iqn.2003-01.org.example:Views";
const login = ps("winsim.test.viewsLogin")`
  param([string]$Iqn)
  $null = Connect-IscsiTarget -NodeAddress $Iqn -TargetPortalAddress '10.0.0.5' -IsPersistent $true
`;

describeWithPwsh("iscsiSessions", (pwsh) => {
  it("describes a login by target, portal, authentication, persistence and disks", async () => {
    await using sim = await Simulator.create({
      iscsi: {
        servers: [{ address: "10.0.0.5", targets: [{ iqn, luns: [{}, {}] }] }],
        portals: [{ address: "10.0.0.5" }],
      },
    });
    const shell = createPowerShell(sim.shellOptions({ executable: pwsh }));
    try {
      await shell.run(login, { Iqn: iqn });
    } finally {
      await shell.close();
    }
    const disks = sim
      .state()
      .disks.filter((d) => d.busType === 9)
      .map((d) => d.number);
    expect(disks).toHaveLength(2);
    expect(sim.iscsiSessions()).toEqual([
      {
        iqn: iqn.toLowerCase(),
        portals: [{ address: "10.0.0.5", port: 3260 }],
        authenticationType: "NONE",
        isPersistent: true,
        diskNumbers: disks,
      },
    ]);
  });
});
