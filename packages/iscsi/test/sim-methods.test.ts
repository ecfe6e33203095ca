import { inspect } from "node:util";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { describe, expect, it } from "vitest";
import { IscsiError } from "../src/index.js";
import { failure } from "./helpers.js";
import {
  address,
  causeId,
  chapIqn,
  chapSecret,
  chapUser,
  GiB,
  mutualIqn,
  openIqn,
  san,
  targetPortal,
  useSimHost,
} from "./sim-setup.js";

const hresultFault = (command: string, hex: string) => ({
  command,
  action: "error" as const,
  error: { message: "injected", errorId: `HRESULT 0x${hex}`, statusCode: Number.parseInt(hex, 16) },
});

describeWithPwsh("Iscsi on the simulated host (session mode)", (pwsh) => {
  const host = useSimHost(pwsh, "session");

  describe("addTargetPortal", () => {
    it("registers the portal on port 3260 when the port is 0, and does nothing the second time", async () => {
      const h = host();
      h.reset();
      await h.iscsi.addTargetPortal({ targetPortal: { targetAddress: address, targetPort: 0 } });
      expect(h.commands()).toEqual(["Get-IscsiTargetPortal", "New-IscsiTargetPortal"]);
      expect(h.sim.state().iscsi?.portals.map((p) => [p.address, p.port])).toEqual([
        [address, 3260],
      ]);
      h.sim.clearCalls();
      await h.iscsi.addTargetPortal({ targetPortal: { targetAddress: address } });
      expect(h.commands()).toEqual(["Get-IscsiTargetPortal"]);
    });

    it("maps an unreachable address to FAILED_PRECONDITION / PORTAL_UNREACHABLE", async () => {
      const h = host();
      h.reset();
      const error = await failure(
        h.iscsi.addTargetPortal({ targetPortal: { targetAddress: "10.9.9.9" } }),
      );
      expect(error).toBeInstanceOf(IscsiError);
      expect(error).toMatchObject({
        code: "FAILED_PRECONDITION",
        reason: "PORTAL_UNREACHABLE",
        hresult: 0xefff0003,
      });
      expect(causeId(error)).toBe("HRESULT 0xefff0003,New-IscsiTargetPortal");
    });

    it("rejects a bad portal before anything runs", async () => {
      const h = host();
      h.reset();
      for (const targetPortal of [
        { targetAddress: "10.0.0.5:3260" },
        { targetAddress: address, targetPort: 70000 },
        { targetAddress: "a b" },
      ]) {
        const error = await failure(h.iscsi.addTargetPortal({ targetPortal }));
        expect(error.code).toBe("INVALID_ARGUMENT");
      }
      expect(h.calls()).toEqual([]);
    });

    it("maps an injected 0xefff003e to SERVICE_NOT_RUNNING", async () => {
      const h = host();
      h.reset();
      h.sim.fault(hresultFault("New-IscsiTargetPortal", "efff003e"));
      const error = await failure(h.iscsi.addTargetPortal({ targetPortal }));
      expect(error).toMatchObject({ code: "FAILED_PRECONDITION", reason: "SERVICE_NOT_RUNNING" });
      expect(h.calls().map((c) => c.outcome)).toEqual(["ok", "fault"]);
    });
  });

  describe("discoverTargetPortal", () => {
    it("re-runs discovery, so a target created after the portal was added shows up", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      expect((await h.iscsi.discoverTargetPortal({ targetPortal })).iqns).toEqual(
        [openIqn, chapIqn, mutualIqn].sort(),
      );
      const late = "iqn.2003-01.org.linux-iscsi.array:late";
      h.sim.update((state) => {
        state.iscsi?.servers[0]?.targets.push({
          iqn: late,
          chapUsername: null,
          chapSecret: null,
          mutualChapSecret: null,
          luns: [],
        });
      });
      expect((await h.iscsi.discoverTargetPortal({ targetPortal })).iqns).toContain(late);
      expect(h.commands()).toContain("Update-IscsiTargetPortal");
    });

    it("is NOT_FOUND / PORTAL_NOT_FOUND for a portal that is not registered", async () => {
      const h = host();
      h.reset();
      const error = await failure(h.iscsi.discoverTargetPortal({ targetPortal }));
      expect(error).toMatchObject({ code: "NOT_FOUND", reason: "PORTAL_NOT_FOUND" });
      expect(h.commands()).toEqual(["Get-IscsiTargetPortal"]);
    });

    it("rejects a missing portal before anything runs", async () => {
      const h = host();
      h.reset();
      const error = await failure(h.iscsi.discoverTargetPortal({} as never));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(h.calls()).toEqual([]);
    });
  });

  describe("removeTargetPortal and listTargetPortals", () => {
    it("lists every portal with its port, removes one, and succeeds when it is gone", async () => {
      const h = host();
      const second = { address: "10.0.0.6", names: ["san2.example"], port: 3261, targets: [] };
      h.reset({ ...san(), servers: [...(san().servers ?? []), second] });
      expect(await h.iscsi.listTargetPortals()).toEqual({ targetPortals: [] });
      await h.iscsi.addTargetPortal({ targetPortal });
      await h.iscsi.addTargetPortal({
        targetPortal: { targetAddress: "san2.example", targetPort: 3261 },
      });
      expect((await h.iscsi.listTargetPortals({})).targetPortals).toEqual([
        { targetAddress: address, targetPort: 3260 },
        { targetAddress: "san2.example", targetPort: 3261 },
      ]);
      await h.iscsi.removeTargetPortal({
        targetPortal: { targetAddress: "SAN2.example", targetPort: 3261 },
      });
      h.sim.clearCalls();
      await h.iscsi.removeTargetPortal({
        targetPortal: { targetAddress: "san2.example", targetPort: 3261 },
      });
      expect(h.commands()).toEqual(["Get-IscsiTargetPortal"]);
      expect((await h.iscsi.listTargetPortals()).targetPortals).toEqual([targetPortal]);
    });

    it("leaves sessions logged in when their portal is removed", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
      await h.iscsi.removeTargetPortal({ targetPortal });
      expect((await h.iscsi.getTargetDisks({ targetPortal, iqn: openIqn })).diskIds).toEqual([
        1, 2,
      ]);
    });

    it("rejects a request that is not an object before anything runs", async () => {
      const h = host();
      h.reset();
      expect((await failure(h.iscsi.listTargetPortals("all" as never))).code).toBe(
        "INVALID_ARGUMENT",
      );
      expect(
        (await failure(h.iscsi.removeTargetPortal({ targetPortal: { targetAddress: "" } }))).code,
      ).toBe("INVALID_ARGUMENT");
      expect(h.calls()).toEqual([]);
    });

    it("maps a fault in the listing to an IscsiError that keeps the record as its cause", async () => {
      const h = host();
      h.reset();
      h.sim.fault(hresultFault("Get-IscsiTargetPortal", "efff003e"));
      const error = await failure(h.iscsi.listTargetPortals());
      expect(error).toMatchObject({ code: "FAILED_PRECONDITION", reason: "SERVICE_NOT_RUNNING" });
      expect(causeId(error)).toBe("HRESULT 0xefff003e,Get-IscsiTargetPortal");
    });
  });

  describe("connectTarget", () => {
    it("logs in once: a repeat finds the connected session and does not log in again", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      await h.iscsi.connectTarget({ targetPortal, iqn: openIqn.toUpperCase(), authType: "NONE" });
      expect(h.commands().filter((c) => c === "Connect-IscsiTarget")).toHaveLength(1);
      await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
      expect(h.commands().filter((c) => c === "Connect-IscsiTarget")).toHaveLength(1);
      expect(h.sim.state().iscsi?.sessions).toHaveLength(1);
    });

    it("registers a connected session as persistent when asked on a repeat", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
      await h.iscsi.connectTarget({
        targetPortal,
        iqn: openIqn,
        authType: "NONE",
        isPersistent: true,
      });
      expect(h.commands()).toContain("Register-IscsiSession");
      expect(h.sim.state().iscsi?.favorites.map((f) => f.targetNodeAddress)).toEqual([openIqn]);
    });

    it("is NOT_FOUND for an unregistered portal and for an IQN the portal did not discover", async () => {
      const h = host();
      h.reset();
      const portal = await failure(
        h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" }),
      );
      expect(portal).toMatchObject({ code: "NOT_FOUND", reason: "PORTAL_NOT_FOUND" });
      h.reset({ ...san(), portals: [{ address }] });
      const iqn = "iqn.2003-01.org.linux-iscsi.array:nope";
      const target = await failure(h.iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" }));
      expect(target).toMatchObject({ code: "NOT_FOUND", reason: "TARGET_NOT_FOUND" });
      expect(h.commands()).not.toContain("Connect-IscsiTarget");
    });

    it("maps wrong CHAP credentials to PERMISSION_DENIED without leaking the secret", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      const wrong = "wrong-secret-1";
      const error = await failure(
        h.iscsi.connectTarget({
          targetPortal,
          iqn: chapIqn,
          authType: "ONE_WAY_CHAP",
          chapUsername: chapUser,
          chapSecret: wrong,
        }),
      );
      expect(error).toMatchObject({
        code: "PERMISSION_DENIED",
        reason: "AUTHENTICATION_FAILED",
        hresult: 0xefff0009,
      });
      expect(causeId(error)).toBe("HRESULT 0xefff0009,Connect-IscsiTarget");
      expect(inspect(error, { depth: null })).not.toContain(wrong);
      expect(JSON.stringify(h.calls())).not.toContain(wrong);
      const login = h.calls().find((c) => c.command === "Connect-IscsiTarget");
      expect(login?.parameters).toMatchObject({ ChapUsername: chapUser, ChapSecret: "[REDACTED]" });
    });

    it("requires CHAP for a CHAP target and maps a secret Windows refuses to INVALID_CHAP_CREDENTIALS", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      const none = await failure(
        h.iscsi.connectTarget({ targetPortal, iqn: chapIqn, authType: "NONE" }),
      );
      expect(none.code).toBe("PERMISSION_DENIED");
      const short = await failure(
        h.iscsi.connectTarget({
          targetPortal,
          iqn: chapIqn,
          authType: "ONE_WAY_CHAP",
          chapUsername: chapUser,
          chapSecret: "tooshort",
        }),
      );
      expect(short).toMatchObject({
        code: "INVALID_ARGUMENT",
        reason: "INVALID_CHAP_CREDENTIALS",
        hresult: 0xefff004a,
      });
      expect(inspect(short, { depth: null })).not.toContain("tooshort");
    });

    it("treats an 'already logged in' answer (another process won the race) as success", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      h.sim.fault(hresultFault("Connect-IscsiTarget", "efff003f"));
      await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
      expect(h.calls().find((c) => c.command === "Connect-IscsiTarget")?.outcome).toBe("fault");
    });

    it("rejects inconsistent credentials before anything runs", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      const requests = [
        { targetPortal, iqn: chapIqn, authType: "ONE_WAY_CHAP" as const, chapUsername: chapUser },
        { targetPortal, iqn: openIqn, authType: "NONE" as const, chapSecret },
        { targetPortal, iqn: "not-an-iqn", authType: "NONE" as const },
        { targetPortal, iqn: openIqn, authType: "CHAP" as never },
      ];
      for (const request of requests) {
        const error = await failure(h.iscsi.connectTarget(request));
        expect(error.code).toBe("INVALID_ARGUMENT");
        expect(inspect(error, { depth: null })).not.toContain(chapSecret);
      }
      expect(h.calls()).toEqual([]);
    });
  });

  describe("disconnectTarget", () => {
    it("logs out, the LUN disks disappear, and a repeat does nothing", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
      expect(h.sim.state().disks.map((d) => d.number)).toEqual([0, 1, 2]);
      await h.iscsi.disconnectTarget({ targetPortal, iqn: openIqn });
      expect(h.sim.state().disks.map((d) => d.number)).toEqual([0]);
      h.sim.clearCalls();
      await h.iscsi.disconnectTarget({ targetPortal, iqn: openIqn });
      expect(h.commands()).not.toContain("Disconnect-IscsiTarget");
    });

    it("unregisters a persistent login before logging out, so no favorite is left", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      await h.iscsi.connectTarget({
        targetPortal,
        iqn: openIqn,
        authType: "NONE",
        isPersistent: true,
      });
      expect(h.sim.state().iscsi?.favorites).toHaveLength(1);
      h.sim.clearCalls();
      await h.iscsi.disconnectTarget({ targetPortal, iqn: openIqn });
      expect(h.commands().filter((c) => !c.startsWith("Get-"))).toEqual([
        "Unregister-IscsiSession",
        "Disconnect-IscsiTarget",
      ]);
      expect(h.sim.state().iscsi?.favorites).toEqual([]);
    });

    it("looks again once when a session vanished meanwhile (0xefff001c)", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
      h.sim.clearCalls();
      h.sim.fault(hresultFault("Disconnect-IscsiTarget", "efff001c"));
      await h.iscsi.disconnectTarget({ targetPortal, iqn: openIqn });
      const logouts = h.calls().filter((c) => c.command === "Disconnect-IscsiTarget");
      expect(logouts.map((c) => c.outcome)).toEqual(["fault", "ok"]);
      expect(h.sim.state().iscsi?.sessions).toEqual([]);
    });

    it("rejects a bad IQN before anything runs", async () => {
      const h = host();
      h.reset();
      const error = await failure(h.iscsi.disconnectTarget({ targetPortal, iqn: "iqn bad" }));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(h.calls()).toEqual([]);
    });
  });

  describe("getTargetDisks", () => {
    it("returns exactly the target's LUN disks, ascending, and none once it is logged out", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      await h.iscsi.connectTarget({
        targetPortal,
        iqn: chapIqn,
        authType: "ONE_WAY_CHAP",
        chapUsername: chapUser,
        chapSecret,
      });
      await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
      // Each disk with the LUN it is, for targets with several LUNs (issue #16 §5).
      expect(await h.iscsi.getTargetDisks({ targetPortal, iqn: openIqn })).toEqual({
        diskIds: [2, 3],
        disks: [
          { diskId: 2, lun: 0 },
          { diskId: 3, lun: 1 },
        ],
      });
      expect(await h.iscsi.getTargetDisks({ targetPortal, iqn: chapIqn })).toEqual({
        diskIds: [1],
        disks: [{ diskId: 1, lun: 0 }],
      });
      const sizes = h.sim.state().disks.map((d) => [d.number, d.busType, d.size]);
      expect(sizes.slice(1)).toEqual([
        [1, 9, GiB],
        [2, 9, GiB],
        [3, 9, 2 * GiB],
      ]);
      await h.iscsi.disconnectTarget({ targetPortal, iqn: openIqn });
      expect(await h.iscsi.getTargetDisks({ targetPortal, iqn: openIqn })).toEqual({
        diskIds: [],
        disks: [],
      });
    });

    it("is empty, without an error, for a target that is not connected", async () => {
      const h = host();
      h.reset();
      expect(await h.iscsi.getTargetDisks({ targetPortal, iqn: openIqn })).toEqual({
        diskIds: [],
        disks: [],
      });
      expect(h.calls().every((c) => c.outcome === "ok")).toBe(true);
    });

    it("maps a Storage failure of Get-Disk to COMMAND_FAILED / OTHER", async () => {
      const h = host();
      h.reset({ ...san(), portals: [{ address }] });
      await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
      h.sim.fault({ command: "Get-Disk", action: "error" });
      const error = await failure(h.iscsi.getTargetDisks({ targetPortal, iqn: openIqn }));
      expect(error).toMatchObject({ code: "COMMAND_FAILED", reason: "OTHER" });
      expect(causeId(error)).toBe("StorageWMI 4,Get-Disk");
    });

    it("rejects a bad port before anything runs", async () => {
      const h = host();
      h.reset();
      const error = await failure(
        h.iscsi.getTargetDisks({
          targetPortal: { targetAddress: address, targetPort: -1 },
          iqn: openIqn,
        }),
      );
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(h.calls()).toEqual([]);
    });
  });

  describe("setMutualChapSecret", () => {
    it("sets the initiator's secret, logged only as [REDACTED]", async () => {
      const h = host();
      h.reset();
      await h.iscsi.setMutualChapSecret({ mutualChapSecret: "node-secret-1" });
      await h.iscsi.setMutualChapSecret({ mutualChapSecret: "node-secret-1" });
      expect(h.sim.state().iscsi?.initiator.mutualChapSecret).toBe("node-secret-1");
      expect(h.calls().map((c) => c.parameters)).toEqual([
        { ChapSecret: "[REDACTED]" },
        { ChapSecret: "[REDACTED]" },
      ]);
    });

    it("maps a secret Windows refuses to INVALID_CHAP_CREDENTIALS without quoting it", async () => {
      const h = host();
      h.reset();
      const error = await failure(h.iscsi.setMutualChapSecret({ mutualChapSecret: "tiny-secret" }));
      expect(error).toMatchObject({
        code: "INVALID_ARGUMENT",
        reason: "INVALID_CHAP_CREDENTIALS",
        hresult: 0xefff004c,
      });
      expect(inspect(error, { depth: null })).not.toContain("tiny-secret");
      expect(JSON.stringify(h.calls())).not.toContain("tiny-secret");
    });

    it("rejects an empty secret before anything runs", async () => {
      const h = host();
      h.reset();
      expect((await failure(h.iscsi.setMutualChapSecret({ mutualChapSecret: "" }))).code).toBe(
        "INVALID_ARGUMENT",
      );
      expect(h.calls()).toEqual([]);
    });
  });
});
