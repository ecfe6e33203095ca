// listSessionDisks: every session's disks and portals in one listing (issue #37), on the simulated
// host: two cmdlet calls whatever the number of sessions, disk numbers as getTargetDisks gives
// them, portals matched as connect and disconnect match them (a name's addresses, a redirected
// login).
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { iscsiHostNameResolver, type IscsiSpec } from "@csi-proxy/winsim";
import { expect, it } from "vitest";
import { Iscsi } from "../src/index.js";
import {
  address,
  chapIqn,
  chapSecret,
  chapUser,
  GiB,
  openIqn,
  targetPortal,
  useSimHost,
  type SimHost,
} from "./sim-setup.js";

const resolving = (h: SimHost) =>
  new Iscsi({ shell: h.shell, resolveHostName: iscsiHostNameResolver(h.sim) });

describeWithPwsh("listSessionDisks on the simulated host", (pwsh) => {
  const host = useSimHost(pwsh, "session");

  it("lists every session's disks and portal in two cmdlet calls, as getTargetDisks numbers them", async () => {
    const h = host();
    h.reset();
    expect(await h.iscsi.listSessionDisks()).toEqual({ sessions: [] });
    await h.iscsi.addTargetPortal({ targetPortal });
    await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
    await h.iscsi.connectTarget({
      targetPortal,
      iqn: chapIqn,
      authType: "ONE_WAY_CHAP",
      chapUsername: chapUser,
      chapSecret,
    });
    h.sim.clearCalls();
    const { sessions } = await h.iscsi.listSessionDisks();
    expect(h.commands()).toEqual(["Get-CimInstance", "Get-IscsiTargetPortal"]);
    expect(sessions.map(({ sessionId: _id, ...rest }) => rest)).toEqual([
      {
        iqn: openIqn.toLowerCase(),
        targetPortals: [targetPortal],
        disks: [
          { diskId: 1, lun: 0 },
          { diskId: 2, lun: 1 },
        ],
      },
      { iqn: chapIqn.toLowerCase(), targetPortals: [targetPortal], disks: [{ diskId: 3, lun: 0 }] },
    ]);
    for (const iqn of [openIqn, chapIqn]) {
      const { diskIds } = await h.iscsi.getTargetDisks({ targetPortal, iqn });
      const listed = sessions.find((s) => s.iqn === iqn.toLowerCase())?.disks.map((d) => d.diskId);
      expect(listed).toEqual(diskIds);
    }
    const ids = (h.sim.state().iscsi?.sessions ?? []).map((s) => s.sessionIdentifier);
    expect(sessions.map((s) => s.sessionId)).toEqual(ids);
  });

  it("matches a portal registered by name through the addresses the name resolves to", async () => {
    const h = host();
    const named = { targetAddress: "san1.corp", targetPort: 3260 };
    h.reset({
      servers: [
        { address, names: ["san1.corp"], targets: [{ iqn: openIqn, luns: [{ size: GiB }] }] },
      ],
    });
    const iscsi = resolving(h);
    await iscsi.addTargetPortal({ targetPortal: named });
    await iscsi.connectTarget({ targetPortal: named, iqn: openIqn, authType: "NONE" });
    const { sessions } = await iscsi.listSessionDisks();
    expect(sessions.map((s) => s.targetPortals)).toEqual([[named]]);
    // Without the name's addresses, the connection to 10.0.0.5 shows no registered portal; the
    // portal offering the target is the one the session went through (nothing else offers it).
    const blind = new Iscsi({
      shell: h.shell,
      resolveHostName: () => Promise.reject(new Error("no")),
    });
    expect((await blind.listSessionDisks()).sessions.map((s) => s.targetPortals)).toEqual([
      [named],
    ]);
  });

  it("gives a redirected login the portal that offers its target, reading the portals' targets only then", async () => {
    const h = host();
    const redirecting: IscsiSpec = {
      servers: [
        {
          address,
          redirectTo: "192.0.2.50",
          targets: [{ iqn: openIqn, luns: [{ size: GiB }] }],
        },
        { address: "10.0.0.6", targets: [{ iqn: chapIqn, luns: [] }] },
      ],
    };
    h.reset(redirecting);
    const other = { targetAddress: "10.0.0.6", targetPort: 3260 };
    await h.iscsi.addTargetPortal({ targetPortal });
    await h.iscsi.addTargetPortal({ targetPortal: other });
    await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
    h.sim.clearCalls();
    const { sessions } = await h.iscsi.listSessionDisks();
    expect(sessions.map((s) => [s.iqn, s.targetPortals])).toEqual([
      [openIqn.toLowerCase(), [targetPortal]],
    ]);
    expect(h.commands()).toEqual([
      "Get-CimInstance",
      "Get-IscsiTargetPortal",
      "Get-IscsiTargetPortal",
      "Get-IscsiTarget",
      "Get-IscsiTarget",
    ]);
  });
});
