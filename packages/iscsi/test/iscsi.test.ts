import { describe, expect, it } from "vitest";
import { Iscsi } from "../src/iscsi.js";
import { FakeIscsiHost, powerShellError } from "./fake-host.js";
import { failure, iqn, portal, setup, targetPortal } from "./helpers.js";

describe("target portals (upstream TestIscsi list/add/remove scenario)", () => {
  it.each([[3260], [0]])(
    "list is empty, add port %s, one portal on 3260, remove, empty",
    async (port) => {
      const { iscsi } = setup();
      expect(await iscsi.listTargetPortals()).toEqual({ targetPortals: [] });
      await iscsi.addTargetPortal({
        targetPortal: { targetAddress: "10.0.0.5", targetPort: port },
      });
      expect(await iscsi.listTargetPortals()).toEqual({
        targetPortals: [{ targetAddress: "10.0.0.5", targetPort: 3260 }],
      });
      await iscsi.removeTargetPortal({
        targetPortal: { targetAddress: "10.0.0.5", targetPort: port },
      });
      expect(await iscsi.listTargetPortals()).toEqual({ targetPortals: [] });
    },
  );

  it("adding a registered portal succeeds without a second portal", async () => {
    const { host, iscsi } = setup();
    await iscsi.addTargetPortal({ targetPortal });
    await iscsi.addTargetPortal({ targetPortal: { targetAddress: "10.0.0.5" } });
    expect(host.portals).toEqual([portal]);
  });

  it("removing a portal that is not registered succeeds", async () => {
    const { host, iscsi } = setup();
    await iscsi.removeTargetPortal({ targetPortal });
    expect(host.methods()).toEqual(["removeTargetPortal"]);
  });

  it("an unreachable portal is FAILED_PRECONDITION / PORTAL_UNREACHABLE", async () => {
    const { iscsi } = setup();
    const error = await failure(
      iscsi.addTargetPortal({ targetPortal: { targetAddress: "10.9.9.9" } }),
    );
    expect(error).toMatchObject({
      code: "FAILED_PRECONDITION",
      reason: "PORTAL_UNREACHABLE",
      hresult: 0xefff0003,
    });
  });

  it("discovery lists the portal's IQNs, and needs a registered portal", async () => {
    const { iscsi } = setup();
    const missing = await failure(iscsi.discoverTargetPortal({ targetPortal }));
    expect(missing).toMatchObject({ code: "NOT_FOUND", reason: "PORTAL_NOT_FOUND" });
    await iscsi.addTargetPortal({ targetPortal });
    expect(await iscsi.discoverTargetPortal({ targetPortal })).toEqual({
      iqns: [iqn, "iqn.2005-10.org.example:vol2"],
    });
  });
});

describe("connectTarget", () => {
  async function added() {
    const context = setup();
    await context.iscsi.addTargetPortal({ targetPortal });
    return context;
  }

  it.each([
    ["NONE", "NONE"],
    ["ONE_WAY_CHAP", "ONEWAYCHAP"],
    ["MUTUAL_CHAP", "MUTUALCHAP"],
  ] as const)("maps authType %s to the cmdlet value %s", async (authType, cmdlet) => {
    const { host, iscsi } = await added();
    const chap = authType === "NONE" ? {} : { chapUsername: "node1", chapSecret: "verysecretpass" };
    await iscsi.connectTarget({ targetPortal, iqn, authType, ...chap });
    expect(host.calls.at(-1)?.args[0]).toMatchObject({ authenticationType: cmdlet });
  });

  it("passes persistence and multipath through", async () => {
    const { host, iscsi } = await added();
    await iscsi.connectTarget({
      targetPortal,
      iqn,
      authType: "NONE",
      isPersistent: true,
      isMultipathEnabled: true,
    });
    expect(host.calls.at(-1)?.args[0]).toMatchObject({
      isPersistent: true,
      isMultipathEnabled: true,
    });
  });

  it("is idempotent: a second call, in any letter case, makes no second session", async () => {
    const { host, iscsi } = await added();
    await iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" });
    await iscsi.connectTarget({ targetPortal, iqn: iqn.toUpperCase(), authType: "NONE" });
    await iscsi.connectTarget({
      targetPortal: { targetAddress: "10.0.0.5" },
      iqn,
      authType: "NONE",
    });
    expect(host.sessions).toHaveLength(1);
  });

  it("treats Windows' 'already logged in' (0xefff003f) as success", async () => {
    const { host, iscsi } = await added();
    host.fail("connectTarget", powerShellError("HRESULT 0xefff003f,Connect-IscsiTarget"));
    await expect(iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" })).resolves.toEqual({});
  });

  it("a missing portal or target is NOT_FOUND with its reason", async () => {
    const { iscsi } = setup();
    const noPortal = await failure(iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" }));
    expect(noPortal).toMatchObject({ code: "NOT_FOUND", reason: "PORTAL_NOT_FOUND" });
    await iscsi.addTargetPortal({ targetPortal });
    const unknown = "iqn.2005-10.org.example:gone";
    const noTarget = await failure(
      iscsi.connectTarget({ targetPortal, iqn: unknown, authType: "NONE" }),
    );
    expect(noTarget).toMatchObject({ code: "NOT_FOUND", reason: "TARGET_NOT_FOUND" });
  });

  it("with multipath, a second portal gets its own session; without, it is already connected", async () => {
    const { host, iscsi } = await added();
    const second = { targetAddress: "10.0.1.5", targetPort: 3260 };
    host.serve({ address: "10.0.1.5", port: 3260 }, [{ iqn, disks: [4, 2] }]);
    await iscsi.addTargetPortal({ targetPortal: second });
    await iscsi.connectTarget({ targetPortal, iqn, authType: "NONE", isMultipathEnabled: true });
    await iscsi.connectTarget({ targetPortal: second, iqn, authType: "NONE" });
    expect(host.sessions).toHaveLength(1);
    await iscsi.connectTarget({
      targetPortal: second,
      iqn,
      authType: "NONE",
      isMultipathEnabled: true,
    });
    expect(host.sessions.map((s) => s.portal.address)).toEqual(["10.0.0.5", "10.0.1.5"]);
    expect(await iscsi.getTargetDisks({ targetPortal, iqn })).toMatchObject({ diskIds: [2, 4] });
  });

  it("with multipath and an unresolvable portal name, refuses rather than log in a second time", async () => {
    const { host, iscsi } = await added();
    await iscsi.connectTarget({ targetPortal, iqn, authType: "NONE", isMultipathEnabled: true });
    host.unresolved = true;
    const request = { targetPortal, iqn, authType: "NONE" } as const;
    const error = await failure(iscsi.connectTarget({ ...request, isMultipathEnabled: true }));
    expect(error).toMatchObject({ code: "FAILED_PRECONDITION", reason: "PORTAL_UNREACHABLE" });
    await iscsi.connectTarget(request);
    expect(host.sessions).toHaveLength(1);
  });

  it("one-way CHAP: a wrong or missing login is PERMISSION_DENIED, the right one connects", async () => {
    const { host, iscsi } = await added();
    host.serve(portal, [
      { iqn, disks: [3], chap: { username: "someuser", secret: "verysecretpass" } },
    ]);
    const none = await failure(iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" }));
    expect(none).toMatchObject({ code: "PERMISSION_DENIED", reason: "AUTHENTICATION_FAILED" });
    const request = {
      targetPortal,
      iqn,
      authType: "ONE_WAY_CHAP",
      chapUsername: "someuser",
    } as const;
    const wrong = await failure(iscsi.connectTarget({ ...request, chapSecret: "wrongsecretxx" }));
    expect(wrong).toMatchObject({ code: "PERMISSION_DENIED", hresult: 0xefff0009 });
    await iscsi.connectTarget({ ...request, chapSecret: "verysecretpass" });
    await iscsi.disconnectTarget({ targetPortal, iqn });
    expect(host.sessions).toEqual([]);
  });

  it("mutual CHAP (upstream scenario): a wrong node secret fails, the target's reverse secret works", async () => {
    const { host, iscsi } = await added();
    const chap = { username: "someuser", secret: "verysecretpass" };
    host.serve(portal, [{ iqn, disks: [3], chap, mutualSecret: "ssaptercesyrev" }]);
    const request = {
      targetPortal,
      iqn,
      authType: "MUTUAL_CHAP",
      chapUsername: chap.username,
      chapSecret: chap.secret,
    } as const;
    await iscsi.setMutualChapSecret({ mutualChapSecret: "made-up-pass" });
    const error = await failure(iscsi.connectTarget(request));
    expect(error).toMatchObject({ code: "PERMISSION_DENIED", reason: "AUTHENTICATION_FAILED" });
    await iscsi.setMutualChapSecret({ mutualChapSecret: "ssaptercesyrev" });
    await iscsi.connectTarget(request);
    expect(await iscsi.getTargetDisks({ targetPortal, iqn })).toMatchObject({ diskIds: [3] });
    await iscsi.disconnectTarget({ targetPortal, iqn });
    expect(host.sessions).toEqual([]);
  });

  it("asking for persistence on a connected target registers the existing session", async () => {
    const { host, iscsi } = await added();
    await iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" });
    expect(host.favorites.size).toBe(0);
    await iscsi.connectTarget({ targetPortal, iqn, authType: "NONE", isPersistent: true });
    expect(host.sessions).toHaveLength(1);
    expect([...host.favorites]).toEqual([host.sessions[0]?.sessionIdentifier]);
  });
});

describe("disconnectTarget", () => {
  async function connected(isPersistent: boolean) {
    const context = setup();
    await context.iscsi.addTargetPortal({ targetPortal });
    await context.iscsi.connectTarget({ targetPortal, iqn, authType: "NONE", isPersistent });
    context.host.calls.length = 0;
    return context;
  }

  it("succeeds with one host call and no logout when the target is not connected", async () => {
    const { host, iscsi } = setup();
    expect(await iscsi.disconnectTarget({ targetPortal, iqn })).toEqual({ sessionsLoggedOut: 0 });
    expect(host.methods()).toEqual(["disconnectTarget"]);
    expect(host.events).toEqual([]);
  });

  it("unregisters a persistent login before logging out", async () => {
    const { host, iscsi } = await connected(true);
    expect(await iscsi.disconnectTarget({ targetPortal, iqn })).toEqual({ sessionsLoggedOut: 1 });
    expect(host.calls[0]?.args).toEqual([portal, iqn]);
    expect(host.events).toEqual(["login session-1", "unregister session-1", "logout session-1"]);
    expect(host.favorites.size).toBe(0);
    expect(host.sessions).toEqual([]);
  });

  it("does not unregister a session that is not persistent", async () => {
    const { host, iscsi } = await connected(false);
    await iscsi.disconnectTarget({ targetPortal, iqn: iqn.toUpperCase() });
    expect(host.events).toEqual(["login session-1", "logout session-1"]);
    expect(host.sessions).toEqual([]);
  });

  it("is idempotent: a second disconnect succeeds", async () => {
    const { host, iscsi } = await connected(false);
    await iscsi.disconnectTarget({ targetPortal, iqn });
    await iscsi.disconnectTarget({ targetPortal, iqn });
    expect(host.methods()).toEqual(["disconnectTarget", "disconnectTarget"]);
  });

  it("after a session vanished meanwhile (0xefff001c), looks again and logs out the rest", async () => {
    const { host, iscsi } = await connected(false);
    host.fail("disconnectTarget", powerShellError("HRESULT 0xefff001c,Disconnect-IscsiTarget"));
    await expect(iscsi.disconnectTarget({ targetPortal, iqn })).resolves.toEqual({
      sessionsLoggedOut: 1,
    });
    expect(host.methods()).toEqual(["disconnectTarget", "disconnectTarget"]);
    expect(host.sessions).toEqual([]);
  });

  it("gives up after looking again once", async () => {
    const { host, iscsi } = await connected(false);
    const vanished = powerShellError("HRESULT 0xefff001c,Disconnect-IscsiTarget");
    host.fail("disconnectTarget", vanished);
    host.fail("disconnectTarget", vanished);
    const error = await failure(iscsi.disconnectTarget({ targetPortal, iqn }));
    expect(error).toMatchObject({ code: "NOT_FOUND", reason: "SESSION_NOT_FOUND" });
  });

  it("a busy device is CONFLICT / SESSION_BUSY", async () => {
    const { host, iscsi } = await connected(false);
    host.fail("disconnectTarget", powerShellError("HRESULT 0xefff0040,Disconnect-IscsiTarget"));
    const error = await failure(iscsi.disconnectTarget({ targetPortal, iqn }));
    expect(error).toMatchObject({ code: "CONFLICT", reason: "SESSION_BUSY" });
  });

  it("logs out only the sessions through this portal when there are some (multipath)", async () => {
    const { host, iscsi } = await connected(false);
    const second = { targetAddress: "10.0.1.5", targetPort: 3260 };
    host.serve({ address: "10.0.1.5", port: 3260 }, [{ iqn, disks: [4, 2] }]);
    await iscsi.addTargetPortal({ targetPortal: second });
    await iscsi.connectTarget({
      targetPortal: second,
      iqn,
      authType: "NONE",
      isMultipathEnabled: true,
    });
    await iscsi.disconnectTarget({ targetPortal: second, iqn });
    expect(host.sessions.map((s) => s.portal.address)).toEqual(["10.0.0.5"]);
  });

  it("leaves the target's sessions through other portals logged in", async () => {
    const { host, iscsi } = await connected(false);
    await iscsi.disconnectTarget({
      targetPortal: { targetAddress: "array.example", targetPort: 3260 },
      iqn,
    });
    expect(host.methods()).toEqual(["disconnectTarget"]);
    expect(host.sessions).toHaveLength(1);
  });

  // Issue #20 B2: an unstage must not wait for DNS; a host that cannot tell a session's portal
  // leaves it to the disconnect, which logs it out (no other portal claimed it).
  it("logs out, and says so, when the portal's name does not resolve", async () => {
    const { host, iscsi } = await connected(false);
    host.unresolved = true;
    expect(await iscsi.disconnectTarget({ targetPortal, iqn })).toEqual({ sessionsLoggedOut: 1 });
    expect(host.sessions).toHaveLength(0);
    expect(await iscsi.disconnectTarget({ targetPortal, iqn })).toEqual({ sessionsLoggedOut: 0 });
  });
});

describe("getTargetDisks", () => {
  it("is empty when the target is not connected", async () => {
    const { iscsi } = setup();
    expect(await iscsi.getTargetDisks({ targetPortal, iqn })).toEqual({ diskIds: [], disks: [] });
  });

  it("lists the target's disk numbers, ascending and once each, in any IQN case", async () => {
    const { iscsi } = setup();
    await iscsi.addTargetPortal({ targetPortal });
    await iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" });
    await iscsi.connectTarget({
      targetPortal,
      iqn: "iqn.2005-10.org.example:vol2",
      authType: "NONE",
    });
    expect(await iscsi.getTargetDisks({ targetPortal, iqn: iqn.toUpperCase() })).toEqual({
      diskIds: [2, 4],
      disks: [
        { diskId: 2, lun: 1 },
        { diskId: 4, lun: 0 },
      ],
    });
  });

  it("sorts and de-duplicates what the host reports (one MPIO disk seen through two sessions)", async () => {
    const host = new FakeIscsiHost();
    host.getTargetDisks = () =>
      Promise.resolve([
        { diskNumber: 9, lun: 1 },
        { diskNumber: 1, lun: 0 },
        { diskNumber: 9, lun: 1 },
      ]);
    expect(await new Iscsi({ host }).getTargetDisks({ targetPortal, iqn })).toEqual({
      diskIds: [1, 9],
      disks: [
        { diskId: 1, lun: 0 },
        { diskId: 9, lun: 1 },
      ],
    });
  });

  it("the full CSI flow: add, discover, connect, disks, disconnect", async () => {
    const { iscsi } = setup();
    await iscsi.addTargetPortal({ targetPortal: { targetAddress: "10.0.0.5", targetPort: 0 } });
    const { iqns } = await iscsi.discoverTargetPortal({ targetPortal });
    expect(iqns).toContain(iqn);
    await iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" });
    const { diskIds } = await iscsi.getTargetDisks({ targetPortal, iqn });
    expect(diskIds).toEqual([2, 4]);
    await iscsi.disconnectTarget({ targetPortal, iqn });
    expect(await iscsi.getTargetDisks({ targetPortal, iqn })).toEqual({ diskIds: [], disks: [] });
  });
});

describe("listSessionDisks", () => {
  it("lists each session's disks ascending and once each, with its portals, in one host call", async () => {
    const { host, iscsi } = setup();
    await iscsi.addTargetPortal({ targetPortal });
    await iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" });
    host.calls.length = 0;
    expect(await iscsi.listSessionDisks()).toEqual({
      sessions: [
        {
          sessionId: "session-1",
          iqn,
          targetPortals: [targetPortal],
          disks: [
            { diskId: 2, lun: 1 },
            { diskId: 4, lun: 0 },
          ],
        },
      ],
    });
    expect(host.methods()).toEqual(["listSessionDisks"]);
  });

  it("refuses a request that is not an object before anything runs, and maps host failures", async () => {
    const { host, iscsi } = setup();
    const bad = await failure(iscsi.listSessionDisks(null as unknown as Record<string, never>));
    expect(bad.code).toBe("INVALID_ARGUMENT");
    expect(host.methods()).toEqual([]);
    host.fail("listSessionDisks", powerShellError("HRESULT 0xefff003e,Get-CimInstance"));
    expect(await failure(iscsi.listSessionDisks())).toMatchObject({
      code: "FAILED_PRECONDITION",
    });
  });
});
