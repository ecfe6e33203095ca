import { describe, expect, it } from "vitest";
import type { IscsiTargetResource } from "../../src/host.js";
import { ctx, expectCode, mixedCase } from "./context.js";

const lower = (values: readonly string[]) => values.map((v) => v.toLowerCase());

export function iscsiPart(): void {
  describe("iscsi through a portal registered by host name", () => {
    const portal = () => ctx().host.iscsi.portal;
    const login = (target: IscsiTargetResource, extra: { isMultipathEnabled?: boolean } = {}) =>
      ctx().groups.iscsi.connectTarget({
        targetPortal: portal(),
        iqn: mixedCase(target.iqn),
        authType: target === ctx().host.iscsi.mutual ? "MUTUAL_CHAP" : "ONE_WAY_CHAP",
        chapUsername: target.chapUsername,
        chapSecret: target.chapSecret,
        ...extra,
      });

    it("sets the mutual CHAP secret and registers the portal, twice (the repeat is a no-op)", async () => {
      const { iscsi } = ctx().groups;
      await iscsi.setMutualChapSecret({ mutualChapSecret: ctx().host.iscsi.mutualSecret });
      await iscsi.addTargetPortal({ targetPortal: portal() });
      await iscsi.addTargetPortal({ targetPortal: portal() });
      const { targetPortals } = await iscsi.listTargetPortals();
      const ours = targetPortals.filter(
        (p) => p.targetAddress.toLowerCase() === portal().targetAddress.toLowerCase(),
      );
      expect(ours).toEqual([
        { targetAddress: expect.any(String), targetPort: portal().targetPort },
      ]);
    });

    it("discovers both targets", async () => {
      const { iqns } = await ctx().groups.iscsi.discoverTargetPortal({ targetPortal: portal() });
      const { oneWay, mutual } = ctx().host.iscsi;
      expect(lower(iqns)).toEqual(expect.arrayContaining(lower([oneWay.iqn, mutual.iqn])));
    });

    it("refuses a wrong CHAP secret with PERMISSION_DENIED", async () => {
      const target = { ...ctx().host.iscsi.oneWay, chapSecret: "wrong-secret-1" };
      await expectCode(login(target), "PERMISSION_DENIED");
    });

    it("logs in with one-way CHAP by a mixed-case IQN, and again (no second session)", async () => {
      const { oneWay } = ctx().host.iscsi;
      const { iscsi, disk } = ctx().groups;
      await login(oneWay);
      await login(oneWay);
      // With multipath allowed, a session through this portal already exists: no new login
      // (a second session would show the LUN as a second disk).
      await login(oneWay, { isMultipathEnabled: true });
      const { diskIds, disks } = await iscsi.getTargetDisks({
        targetPortal: portal(),
        iqn: mixedCase(oneWay.iqn),
      });
      expect(diskIds).toHaveLength(1);
      // The target's only LUN is LUN 0, read from the disk's Location ("... : LUN 0").
      expect(disks).toEqual([{ diskId: diskIds[0], lun: 0 }]);
      const [lun] = diskIds;
      expect(await disk.getDiskStats({ diskNumber: lun! })).toEqual({
        totalBytes: oneWay.lunBytes,
      });
    });

    it("finds the LUN's disk again by its page 83 id", async () => {
      const { oneWay } = ctx().host.iscsi;
      const { iscsi, disk } = ctx().groups;
      const [lun] = (await iscsi.getTargetDisks({ targetPortal: portal(), iqn: oneWay.iqn }))
        .diskIds;
      const page83 = (await disk.listDiskIds()).diskIds.get(lun!)?.page83 ?? "";
      expect(page83).not.toBe("");
      expect(await disk.getDiskNumberByPage83({ page83 })).toEqual({ diskNumber: lun });
    });

    it("lists the LUN's session with every session's disks: the disk getTargetDisks gives, through this portal", async () => {
      const { oneWay } = ctx().host.iscsi;
      const { iscsi } = ctx().groups;
      const { diskIds } = await iscsi.getTargetDisks({ targetPortal: portal(), iqn: oneWay.iqn });
      const { sessions } = await iscsi.listSessionDisks();
      const mine = sessions.filter((s) => s.iqn.toLowerCase() === oneWay.iqn.toLowerCase());
      expect(mine.flatMap((s) => s.disks.map((d) => d.diskId))).toEqual(diskIds);
      expect(mine.flatMap((s) => s.disks.map((d) => d.lun))).toEqual([0]);
      const through = mine.flatMap((s) =>
        s.targetPortals.map((p) => `${p.targetAddress.toLowerCase()}:${p.targetPort}`),
      );
      expect(through).toContain(
        `${portal().targetAddress.toLowerCase()}:${String(portal().targetPort)}`,
      );
    });

    it("logs in with mutual CHAP and out again", async () => {
      const { mutual } = ctx().host.iscsi;
      const { iscsi } = ctx().groups;
      await login(mutual);
      expect(
        (await iscsi.getTargetDisks({ targetPortal: portal(), iqn: mutual.iqn })).diskIds,
      ).toHaveLength(1);
      await iscsi.disconnectTarget({ targetPortal: portal(), iqn: mixedCase(mutual.iqn) });
      expect(
        (await iscsi.getTargetDisks({ targetPortal: portal(), iqn: mutual.iqn })).diskIds,
      ).toEqual([]);
    });

    it("logs out by the mixed-case IQN, twice (the repeat is a no-op), and removes the portal twice", async () => {
      const { oneWay } = ctx().host.iscsi;
      const { iscsi } = ctx().groups;
      await iscsi.disconnectTarget({ targetPortal: portal(), iqn: mixedCase(oneWay.iqn) });
      await iscsi.disconnectTarget({ targetPortal: portal(), iqn: mixedCase(oneWay.iqn) });
      expect(
        (await iscsi.getTargetDisks({ targetPortal: portal(), iqn: oneWay.iqn })).diskIds,
      ).toEqual([]);
      await iscsi.removeTargetPortal({ targetPortal: portal() });
      await iscsi.removeTargetPortal({ targetPortal: portal() });
      const { targetPortals } = await iscsi.listTargetPortals();
      expect(
        targetPortals.filter(
          (p) => p.targetAddress.toLowerCase() === portal().targetAddress.toLowerCase(),
        ),
      ).toEqual([]);
    });
  });
}
