import { describeWithPwsh } from "@csi-proxy/test-utils";
import { iscsiHostNameResolver, type IscsiSpec } from "@csi-proxy/winsim";
import { describe, expect, it } from "vitest";
import { Iscsi } from "../src/index.js";
import { failure } from "./helpers.js";
import { GiB, openIqn, useSimHost, type SimHost } from "./sim-setup.js";

// Windows reports a connection's TargetAddress as the IP it connected to, while the portal keeps
// the name it was registered with (review F2). It spells a target as the target does in
// Get-IscsiTarget and lower-cased in Get-IscsiSession (review F6, PowerShell/PowerShell#17306).

const nameA = "san1.corp";
const ipA = "10.0.0.5";
const ipB = "10.0.0.6";
const portalA = { targetAddress: nameA, targetPort: 3260 };
const portalB = { targetAddress: ipB, targetPort: 3260 };

/** One target reachable at two portals: 10.0.0.5 (also named san1.corp) and 10.0.0.6. */
function twoPortals(portals: { address: string }[]): IscsiSpec {
  return {
    servers: [
      { address: ipA, names: [nameA], targets: [{ iqn: openIqn, luns: [{ size: GiB }] }] },
      { address: ipB, targets: [{ iqn: openIqn, luns: [] }] },
    ],
    portals,
  };
}

/** An Iscsi that resolves host names through the simulated host's own name table. */
function resolving(h: SimHost): Iscsi {
  return new Iscsi({ shell: h.shell, resolveHostName: iscsiHostNameResolver(h.sim) });
}

function sessionAddresses(h: SimHost): string[] {
  return (h.sim.state().iscsi?.sessions ?? []).flatMap((s) =>
    s.connections.map((c) => c.targetAddress),
  );
}

const logins = (h: SimHost) => h.commands().filter((c) => c === "Connect-IscsiTarget").length;

/** Connects twice with multipath through `targetAddress`; returns the logins and addresses seen. */
async function connectTwice(h: SimHost, iscsi: Iscsi, targetAddress: string) {
  const request = {
    targetPortal: { targetAddress },
    iqn: openIqn,
    authType: "NONE",
    isMultipathEnabled: true,
  } as const;
  await iscsi.connectTarget(request);
  await iscsi.connectTarget(request);
  return { logins: logins(h), addresses: sessionAddresses(h) };
}

/** A multipath login through portal A by name, then every name stops resolving. */
async function connectThenLoseNames(h: SimHost, portals: { address: string }[]) {
  h.reset(twoPortals(portals));
  const iscsi = resolving(h);
  const request = { targetPortal: portalA, iqn: openIqn, authType: "NONE" } as const;
  await iscsi.connectTarget({ ...request, isMultipathEnabled: true });
  h.sim.update((state) => {
    if (state.iscsi !== undefined) state.iscsi.hosts = [];
  });
  h.sim.clearCalls();
  return { iscsi, request };
}

describeWithPwsh("Iscsi matches sessions to portals as Windows reports them", (pwsh) => {
  const host = useSimHost(pwsh, "session");

  describe("a portal registered by host name (F2)", () => {
    it("localhost, with the system resolver: a repeated multipath connect logs in once", async () => {
      const h = host();
      h.reset({
        servers: [{ address: "127.0.0.1", targets: [{ iqn: openIqn, luns: [{ size: GiB }] }] }],
        portals: [{ address: "localhost" }],
      });
      expect(await connectTwice(h, h.iscsi, "localhost")).toEqual({
        logins: 1,
        addresses: ["127.0.0.1"],
      });
      await h.iscsi.disconnectTarget({
        targetPortal: { targetAddress: "localhost" },
        iqn: openIqn,
      });
      expect(h.sim.state().iscsi?.sessions).toEqual([]);
    });

    it("a DNS name: a repeated multipath connect logs in once", async () => {
      const h = host();
      h.reset(twoPortals([{ address: nameA }]));
      expect(await connectTwice(h, resolving(h), nameA)).toEqual({ logins: 1, addresses: [ipA] });
    });

    it("an IPv6 portal spelled otherwise than the connection's address: a repeat logs in once", async () => {
      const h = host();
      h.reset({
        servers: [{ address: "fd00:0:0:0::5", targets: [{ iqn: openIqn, luns: [] }] }],
        portals: [{ address: "FD00::5" }],
      });
      expect(await connectTwice(h, h.iscsi, "[FD00::5]")).toEqual({
        logins: 1,
        addresses: ["fd00:0:0:0::5"],
      });
    });

    it("two portals of one target, A by name and B by IP: disconnecting through A leaves B's session", async () => {
      const h = host();
      h.reset(twoPortals([{ address: nameA }, { address: ipB }]));
      const iscsi = resolving(h);
      const login = { iqn: openIqn, authType: "NONE", isMultipathEnabled: true } as const;
      await iscsi.connectTarget({ ...login, targetPortal: portalA });
      await iscsi.connectTarget({ ...login, targetPortal: portalB });
      expect(sessionAddresses(h)).toEqual([ipA, ipB]);
      await iscsi.disconnectTarget({ targetPortal: portalA, iqn: openIqn });
      expect(sessionAddresses(h)).toEqual([ipB]);
      await iscsi.disconnectTarget({ targetPortal: portalA, iqn: openIqn });
      expect(sessionAddresses(h)).toEqual([ipB]);
      await iscsi.disconnectTarget({ targetPortal: portalB, iqn: openIqn });
      expect(sessionAddresses(h)).toEqual([]);
    });

    it("two portals, A by name and B by IP: disconnecting through B asks Node's resolver about A, and leaves A's session", async () => {
      const h = host();
      h.reset(twoPortals([{ address: nameA }, { address: ipB }]));
      const iscsi = resolving(h);
      const login = { iqn: openIqn, authType: "NONE", isMultipathEnabled: true } as const;
      await iscsi.connectTarget({ ...login, targetPortal: portalA });
      await iscsi.connectTarget({ ...login, targetPortal: portalB });
      h.sim.clearCalls();
      expect(await iscsi.disconnectTarget({ targetPortal: portalB, iqn: openIqn })).toEqual({
        sessionsLoggedOut: 1,
      });
      expect(sessionAddresses(h)).toEqual([ipA]);
      expect(h.commands().filter((c) => c === "Disconnect-IscsiTarget")).toHaveLength(1);
      expect(h.commands().filter((c) => c === "Get-IscsiSession")).toHaveLength(1);
    });

    it("once the name no longer resolves: no second login, and a disconnect needs no DNS", async () => {
      const h = host();
      const { iscsi, request } = await connectThenLoseNames(h, [{ address: nameA }]);
      // The only registered portal offering the target: every session of it came through it.
      await iscsi.connectTarget({ ...request, isMultipathEnabled: true });
      expect(h.commands()).not.toContain("Connect-IscsiTarget");
      expect(sessionAddresses(h)).toEqual([ipA]);
      expect(await iscsi.disconnectTarget({ targetPortal: portalA, iqn: openIqn })).toEqual({
        sessionsLoggedOut: 1,
      });
      expect(sessionAddresses(h)).toEqual([]);
    });

    it("with another portal offering the target, a multipath connect still refuses to guess", async () => {
      const h = host();
      const { iscsi, request } = await connectThenLoseNames(h, [
        { address: nameA },
        { address: ipB },
      ]);
      const connect = await failure(iscsi.connectTarget({ ...request, isMultipathEnabled: true }));
      expect(connect).toMatchObject({ code: "FAILED_PRECONDITION", reason: "PORTAL_UNREACHABLE" });
      expect(h.commands()).not.toContain("Connect-IscsiTarget");
      // A disconnect through the other portal leaves the session its addresses do not claim.
      expect(await iscsi.disconnectTarget({ targetPortal: portalB, iqn: openIqn })).toEqual({
        sessionsLoggedOut: 0,
      });
      expect(sessionAddresses(h)).toEqual([ipA]);
      // Through its own portal it goes, though the name does not resolve.
      expect(await iscsi.disconnectTarget({ targetPortal: portalA, iqn: openIqn })).toEqual({
        sessionsLoggedOut: 1,
      });
    });
  });

  // Review R1 / issue #20 B2: a target that redirects logins (RFC 7143 "moved temporarily") puts
  // a data address in the connection that neither the portal's text nor its DNS answer shows.
  describe("a target that redirects logins to a data address (R1)", () => {
    const groupIp = "10.0.0.5";
    const dataIp = "192.0.2.50";
    const redirecting: IscsiSpec = {
      servers: [
        {
          address: groupIp,
          names: [nameA],
          redirectTo: dataIp,
          targets: [{ iqn: openIqn, luns: [{ size: GiB }] }],
        },
      ],
    };

    it("the session reports the data address, and disconnect logs it out and unregisters it", async () => {
      const h = host();
      h.reset(redirecting);
      const iscsi = resolving(h);
      await iscsi.addTargetPortal({ targetPortal: portalA });
      const request = { targetPortal: portalA, iqn: openIqn, authType: "NONE" } as const;
      await iscsi.connectTarget({ ...request, isPersistent: true });
      expect(sessionAddresses(h)).toEqual([dataIp]);
      expect(await iscsi.disconnectTarget({ targetPortal: portalA, iqn: openIqn })).toEqual({
        sessionsLoggedOut: 1,
      });
      expect(sessionAddresses(h)).toEqual([]);
      expect(h.sim.state().iscsi?.favorites).toEqual([]);
    });

    it("a retried multipath connect logs in once", async () => {
      const h = host();
      h.reset(redirecting);
      const iscsi = resolving(h);
      await iscsi.addTargetPortal({ targetPortal: portalA });
      const { logins: count, addresses } = await connectTwice(h, iscsi, nameA);
      expect(count).toBe(1);
      expect(addresses).toEqual([dataIp]);
    });
  });

  describe("an IQN spelled otherwise than the target spells it (F6)", () => {
    it("connects, lists and disconnects a mixed-case target named in lower case", async () => {
      const h = host();
      const mixed = "iqn.2003-01.org.Example.Array:Vol-A";
      const lower = mixed.toLowerCase();
      h.reset({
        servers: [{ address: ipA, targets: [{ iqn: mixed, luns: [{ size: GiB }] }] }],
        portals: [{ address: ipA }],
      });
      const targetPortal = { targetAddress: ipA };
      expect(await h.iscsi.discoverTargetPortal({ targetPortal })).toEqual({ iqns: [mixed] });
      await h.iscsi.connectTarget({ targetPortal, iqn: lower, authType: "NONE" });
      expect(h.sim.state().iscsi?.sessions.map((s) => s.targetNodeAddress)).toEqual([lower]);
      const { diskIds } = await h.iscsi.getTargetDisks({ targetPortal, iqn: mixed.toUpperCase() });
      expect(diskIds).toHaveLength(1);
      await h.iscsi.disconnectTarget({ targetPortal, iqn: lower });
      expect(h.sim.state().iscsi?.sessions).toEqual([]);
      expect(h.sim.state().disks.map((d) => d.number)).not.toContain(diskIds[0]);
    });
  });
});
