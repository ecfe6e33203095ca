import { describe, expect, it } from "vitest";
import { buildIscsiState, buildScenario } from "../src/index.js";

const GiB = 1024 ** 3;

describe("the iSCSI scenario builder", () => {
  it("builds LUNs as offline RAW iSCSI disks with unique paths, numbered only at login", () => {
    const state = buildIscsiState(
      {
        servers: [
          {
            address: "10.0.0.5",
            targets: [
              { iqn: "iqn.2003-01.org.example:a", luns: [{ size: GiB }, { size: 2 * GiB }] },
              { iqn: "iqn.2003-01.org.example:b", luns: [{ lun: 7, offline: false }] },
            ],
          },
        ],
      },
      "/tmp/root",
    );
    const luns = state.servers[0]?.targets.flatMap((t) => t.luns) ?? [];
    expect(luns.map((l) => l.lun)).toEqual([0, 1, 7]);
    expect(luns.map((l) => l.disk.number)).toEqual([-1, -1, -1]);
    expect(luns[0]?.disk).toMatchObject({
      busType: 9,
      partitionStyle: 0,
      isOffline: true,
      offlineReason: 1,
      friendlyName: "MSFT Virtual HD",
      size: GiB,
    });
    expect(luns[2]?.disk.isOffline).toBe(false);
    expect(new Set(luns.map((l) => l.disk.path)).size).toBe(3);
    expect(new Set(luns.map((l) => l.disk.uniqueId)).size).toBe(3);
    expect(state.servers[0]?.port).toBe(3260);
    expect(state.initiator).toEqual({
      nodeAddress: "iqn.1991-05.com.microsoft:winsim",
      mutualChapSecret: null,
      serviceRunning: true,
    });
  });

  it("keeps a formatted LUN's partitions and volumes with it", () => {
    const state = buildIscsiState(
      {
        servers: [
          {
            address: "10.0.0.9",
            names: ["san.example"],
            port: 3261,
            targets: [{ iqn: "iqn.2003-01.org.example:a", luns: [{ partitions: [{}] }] }],
          },
        ],
        portals: [{ address: "SAN.example.", port: 3261 }],
      },
      "/tmp/root",
    );
    const lun = state.servers[0]?.targets[0]?.luns[0];
    expect(lun?.disk.partitionStyle).toBe(2);
    expect(lun?.partitions.map((p) => p.diskNumber)).toEqual([-1, -1]);
    expect(lun?.volumes).toHaveLength(1);
    expect(state.portals).toMatchObject([
      { address: "SAN.example.", port: 3261, discovered: ["iqn.2003-01.org.example:a"] },
    ]);
  });

  it("rejects a portal without a server and a LUN with access paths", () => {
    expect(() => buildIscsiState({ portals: [{ address: "10.0.0.9" }] }, "/r")).toThrow(RangeError);
    const mounted = {
      servers: [
        {
          address: "10.0.0.5",
          targets: [
            { iqn: "iqn.2003-01.org.example:a", luns: [{ partitions: [{ accessPaths: ["m"] }] }] },
          ],
        },
      ],
    };
    expect(() => buildIscsiState(mounted, "/r")).toThrow(RangeError);
  });

  it("is wired into buildScenario", () => {
    const built = buildScenario({ iscsi: { mutualChapSecret: "abcdefghijkl" } }, "/r");
    expect(built.state.iscsi?.initiator.mutualChapSecret).toBe("abcdefghijkl");
    expect(built.state.iscsi?.sessions).toEqual([]);
  });
});
