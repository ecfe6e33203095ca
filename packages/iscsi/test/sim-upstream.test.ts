import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { failure } from "./helpers.js";
import {
  address,
  chapIqn,
  chapSecret,
  chapUser,
  mutualIqn,
  openIqn,
  targetPortal,
  targetSecret,
  useSimHost,
} from "./sim-setup.js";

// The disk steps of upstream's full flow (SetDiskState, PartitionDisk) as raw scripts:
// @csi-proxy/disk is not a devDependency of this package.
const setDiskOnline = ps("test.iscsi.setDiskOnline")`
param([uint32]$Number, [bool]$Online)
Set-Disk -Number $Number -IsOffline (-not $Online)
`;

const partitionDisk = ps("test.iscsi.partitionDisk")`
param([uint32]$Number)
Initialize-Disk -Number $Number -PartitionStyle GPT
New-Partition -DiskNumber $Number -UseMaximumSize | Out-Null
`;

const diskView = ps("test.iscsi.diskView")`
param([uint32]$Number)
$d = Get-Disk -Number $Number
[pscustomobject]@{ bus = $d.BusType; style = $d.PartitionStyle; offline = $d.IsOffline; partitions = [int]$d.NumberOfPartitions }
`;

// Upstream's iSCSI integration scenarios (csi-proxy-api.md §8), against the simulated loopback target.
describeWithPwsh("upstream's iSCSI scenarios on the simulated host", (pwsh) => {
  const host = useSimHost(pwsh, "session");

  for (const targetPort of [3260, 0]) {
    it(`lists, adds and removes a portal given port ${targetPort}`, async () => {
      const h = host();
      h.reset();
      const portal = { targetAddress: address, targetPort };
      expect((await h.iscsi.listTargetPortals()).targetPortals).toEqual([]);
      await h.iscsi.addTargetPortal({ targetPortal: portal });
      expect((await h.iscsi.listTargetPortals()).targetPortals).toEqual([
        { targetAddress: address, targetPort: 3260 },
      ]);
      await h.iscsi.removeTargetPortal({ targetPortal: portal });
      expect((await h.iscsi.listTargetPortals()).targetPortals).toEqual([]);
    });
  }

  it("discovers the target, then connects and disconnects without CHAP", async () => {
    const h = host();
    h.reset();
    await h.iscsi.addTargetPortal({ targetPortal });
    expect((await h.iscsi.discoverTargetPortal({ targetPortal })).iqns).toContain(openIqn);
    await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
    expect(h.sim.state().iscsi?.sessions.map((s) => s.targetNodeAddress)).toEqual([openIqn]);
    await h.iscsi.disconnectTarget({ targetPortal, iqn: openIqn });
    expect(h.sim.state().iscsi?.sessions).toEqual([]);
  });

  it("connects with one-way CHAP", async () => {
    const h = host();
    h.reset();
    await h.iscsi.addTargetPortal({ targetPortal });
    await h.iscsi.connectTarget({
      targetPortal,
      iqn: chapIqn,
      authType: "ONE_WAY_CHAP",
      chapUsername: chapUser,
      chapSecret,
    });
    expect(h.sim.state().iscsi?.sessions.map((s) => s.authenticationType)).toEqual(["ONEWAYCHAP"]);
    await h.iscsi.disconnectTarget({ targetPortal, iqn: chapIqn });
    expect(h.sim.state().iscsi?.sessions).toEqual([]);
  });

  it("fails mutual CHAP with a wrong node secret, then connects with the right one", async () => {
    const h = host();
    h.reset();
    await h.iscsi.addTargetPortal({ targetPortal });
    const login = {
      targetPortal,
      iqn: mutualIqn,
      authType: "MUTUAL_CHAP" as const,
      chapUsername: chapUser,
      chapSecret,
    };
    await h.iscsi.setMutualChapSecret({ mutualChapSecret: "made-up-pass" });
    const error = await failure(h.iscsi.connectTarget(login));
    expect(error).toMatchObject({ code: "PERMISSION_DENIED", reason: "AUTHENTICATION_FAILED" });
    await h.iscsi.setMutualChapSecret({ mutualChapSecret: targetSecret });
    await h.iscsi.connectTarget(login);
    expect(h.sim.state().iscsi?.sessions.map((s) => s.authenticationType)).toEqual(["MUTUALCHAP"]);
    await h.iscsi.disconnectTarget({ targetPortal, iqn: mutualIqn });
    const log = JSON.stringify(h.calls());
    for (const secret of [chapSecret, targetSecret, "made-up-pass"])
      expect(log).not.toContain(secret);
  });

  it("runs the full flow: its one LUN is a disk that can be onlined and partitioned, and it vanishes after disconnect", async () => {
    const h = host();
    h.reset();
    await h.iscsi.addTargetPortal({ targetPortal });
    expect((await h.iscsi.discoverTargetPortal({ targetPortal })).iqns).toContain(chapIqn);
    await h.iscsi.connectTarget({
      targetPortal,
      iqn: chapIqn,
      authType: "ONE_WAY_CHAP",
      chapUsername: chapUser,
      chapSecret,
    });
    const { diskIds } = await h.iscsi.getTargetDisks({ targetPortal, iqn: chapIqn });
    expect(diskIds).toEqual([1]);
    const [number] = diskIds;
    expect(await h.shell.run(diskView, { Number: number })).toEqual({
      bus: "iSCSI",
      style: "RAW",
      offline: true,
      partitions: 0,
    });
    await h.shell.run(setDiskOnline, { Number: number, Online: true });
    await h.shell.run(partitionDisk, { Number: number });
    await h.shell.run(setDiskOnline, { Number: number, Online: false });
    expect(await h.shell.run(diskView, { Number: number })).toEqual({
      bus: "iSCSI",
      style: "GPT",
      offline: true,
      partitions: 2,
    });
    await h.iscsi.disconnectTarget({ targetPortal, iqn: chapIqn });
    expect((await h.iscsi.getTargetDisks({ targetPortal, iqn: chapIqn })).diskIds).toEqual([]);
    expect(h.sim.state().disks.map((d) => d.number)).toEqual([0]);
    expect(h.sim.state().partitions.every((p) => p.diskNumber === 0)).toBe(true);
  });
});
