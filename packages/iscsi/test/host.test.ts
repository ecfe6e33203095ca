import { describe, expect, it } from "vitest";
import { createPowerShellIscsiHost, iscsiScripts } from "../src/host.js";
import { Iscsi } from "../src/iscsi.js";
import { FakeIscsiHost } from "./fake-host.js";
import { FakePowerShell } from "./fake-shell.js";
import { iqn, portal } from "./helpers.js";

const portalParams = { TargetPortalAddress: "10.0.0.5", TargetPortalPortNumber: 3260 };

function host() {
  const shell = new FakePowerShell();
  return { shell, host: createPowerShellIscsiHost(shell) };
}

/** The sessions the `iscsi.logout` calls were given, in order. */
function logoutsOf(shell: FakePowerShell): string[] {
  return shell.calls
    .filter((c) => c.script.name === "iscsi.logout")
    .flatMap((c) =>
      (c.params?.Sessions as { sessionIdentifier: string }[]).map((s) => s.sessionIdentifier),
    );
}

function sessionOf(sessionIdentifier: string) {
  return { sessionIdentifier, targetNodeAddress: iqn, isPersistent: false };
}

describe("the PowerShell-backed host", () => {
  it("runs one script per call with the cmdlets' parameter names", async () => {
    const { shell, host: h } = host();
    shell.results.set("iscsi.listPortals", [{ address: "10.0.0.5", port: 3260 }]);
    shell.results.set("iscsi.addPortal", "added");
    shell.results.set("iscsi.removePortal", "absent");
    shell.results.set("iscsi.discover", { portalFound: true, iqns: [iqn] });
    shell.results.set("iscsi.disconnect", { loggedOut: 2 });
    shell.results.set("iscsi.targetDisks", [
      { number: 2, location: "Integrated : Adapter 2 : Port 0 : Target 1 : LUN 0" },
      { number: 4, location: "Integrated : Adapter 2 : Port 0 : Target 1 : LUN 3" },
      { number: 5, location: "" },
    ]);

    expect(await h.listTargetPortals()).toEqual([portal]);
    expect(await h.addTargetPortal(portal)).toBe("added");
    expect(await h.removeTargetPortal(portal)).toBe("absent");
    expect(await h.discoverTargets(portal)).toEqual({ portalFound: true, iqns: [iqn] });
    expect(await h.disconnectTarget(portal, iqn)).toBe(2);
    expect(await h.getTargetDisks(iqn)).toEqual([
      { diskNumber: 2, lun: 0 },
      { diskNumber: 4, lun: 3 },
      { diskNumber: 5, lun: null },
    ]);

    expect(shell.calls.map((c) => [c.script.name, c.params])).toEqual([
      ["iscsi.listPortals", undefined],
      ["iscsi.addPortal", portalParams],
      ["iscsi.removePortal", portalParams],
      ["iscsi.discover", portalParams],
      [
        "iscsi.disconnect",
        { ...portalParams, TargetPortalAddresses: ["10.0.0.5"], NodeAddress: iqn },
      ],
      ["iscsi.targetDisks", { NodeAddress: iqn }],
    ]);
  });

  it("passes a login's settings to the connect script", async () => {
    const { shell, host: h } = host();
    shell.results.set("iscsi.connect", "alreadyConnected");
    const outcome = await h.connectTarget({
      portal,
      iqn,
      authenticationType: "ONEWAYCHAP",
      chapUsername: "node1",
      chapSecret: "verysecretpass",
      isPersistent: true,
      isMultipathEnabled: false,
    });
    expect(outcome).toBe("alreadyConnected");
    expect(shell.calls[0]?.params).toEqual({
      ...portalParams,
      TargetPortalAddresses: ["10.0.0.5"],
      PortalResolved: true,
      NodeAddress: iqn,
      AuthenticationType: "ONEWAYCHAP",
      ChapUsername: "node1",
      ChapSecret: "verysecretpass",
      IsPersistent: true,
      IsMultipathEnabled: false,
    });
  });

  it("resolves a host-name portal to every address and passes them, not the name, for matching", async () => {
    const shell = new FakePowerShell();
    const asked: string[] = [];
    const h = createPowerShellIscsiHost(shell, {
      resolveHostName: (name) => {
        asked.push(name);
        return Promise.resolve(["10.0.0.5", "fd00::5", "not an address"]);
      },
    });
    shell.results.set("iscsi.disconnect", {
      loggedOut: null,
      sessions: [
        { ...sessionOf("s-6"), connections: [{ address: "fd00::5", port: 3260 }] },
        { ...sessionOf("s-7"), connections: [{ address: "10.0.0.7", port: 3260 }] },
      ],
      otherPortals: [{ address: "10.0.0.7", port: 3260 }],
    });
    shell.results.set("iscsi.connect", "connected");
    const named = { address: "san1.example", port: 3260 };
    expect(await h.disconnectTarget(named, iqn)).toBe(1);
    expect(logoutsOf(shell)).toEqual(["s-6"]);
    await h.connectTarget({
      portal: named,
      iqn,
      authenticationType: "NONE",
      chapUsername: "",
      chapSecret: "",
      isPersistent: false,
      isMultipathEnabled: true,
    });
    expect(asked).toEqual(["san1.example", "san1.example"]);
    expect(shell.calls[0]?.params).toMatchObject({
      TargetPortalAddress: "san1.example",
      TargetPortalAddresses: ["10.0.0.5", "fd00::5"],
    });
    expect(shell.calls[2]?.params).toMatchObject({
      TargetPortalAddress: "san1.example",
      TargetPortalAddresses: ["10.0.0.5", "fd00::5"],
      PortalResolved: true,
    });
  });

  it("needs no DNS to attribute sessions: an unresolvable name keeps what no other portal claims", async () => {
    const shell = new FakePowerShell();
    const asked: string[] = [];
    const h = createPowerShellIscsiHost(shell, {
      resolveHostName: (name) => {
        asked.push(name);
        return Promise.reject(new Error("getaddrinfo ENOTFOUND"));
      },
    });
    shell.results.set("iscsi.disconnect", {
      loggedOut: null,
      sessions: [
        // Redirected by the target to a data address neither portal shows.
        { ...sessionOf("s-1"), connections: [{ address: "192.0.2.77", port: 3260 }] },
        { ...sessionOf("s-2"), connections: [{ address: "10.0.0.9", port: 3260 }] },
      ],
      otherPortals: [{ address: "10.0.0.9", port: 3260 }],
    });
    expect(await h.disconnectTarget(portal, iqn)).toBe(1);
    expect(logoutsOf(shell)).toEqual(["s-1"]);
    expect(asked).toEqual([]);
    expect(shell.calls[0]?.params).toMatchObject({ TargetPortalAddresses: ["10.0.0.5"] });
    shell.calls.length = 0;
    const gone = { address: "gone.example", port: 3260 };
    expect(await h.disconnectTarget(gone, iqn)).toBe(1);
    expect(logoutsOf(shell)).toEqual(["s-1"]);
    expect(asked).toEqual(["gone.example"]);
    expect(shell.calls[0]?.params).toMatchObject({ TargetPortalAddresses: [] });
  });

  it("matches an IPv4-mapped IPv6 connection address to an IPv4 portal", async () => {
    const { shell, host: h } = host();
    shell.results.set("iscsi.disconnect", {
      loggedOut: null,
      sessions: [
        { ...sessionOf("s-1"), connections: [{ address: "::ffff:10.0.0.5", port: 3260 }] },
      ],
      otherPortals: [{ address: "10.0.0.5", port: 3261 }],
    });
    expect(await h.disconnectTarget(portal, iqn)).toBe(1);
    expect(logoutsOf(shell)).toEqual(["s-1"]);
  });

  it("takes resolveHostName only for its own PowerShell host", () => {
    expect(
      () => new Iscsi({ host: new FakeIscsiHost(), resolveHostName: () => Promise.resolve([]) }),
    ).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }) as Error);
  });

  it.each([
    ["iscsi.listPortals", { address: "x", port: 1 }, "listTargetPortals"],
    ["iscsi.listPortals", [{ address: "x", port: "3260" }], "listTargetPortals"],
    ["iscsi.addPortal", "created", "addTargetPortal"],
    ["iscsi.removePortal", undefined, "removeTargetPortal"],
    ["iscsi.discover", { portalFound: true, iqns: "iqn.x" }, "discoverTargetPortal"],
    ["iscsi.targetDisks", [{ number: 1.5, location: "" }], "getTargetDisks"],
    ["iscsi.targetDisks", 3, "getTargetDisks"],
  ] as const)("%s answering %j is PARSE_FAILED", async (script, result, method) => {
    const { shell } = host();
    shell.results.set(script, result);
    const iscsi = new Iscsi({ shell });
    const request = { targetPortal: { targetAddress: "10.0.0.5" }, iqn };
    await expect(iscsi[method](request as never)).rejects.toMatchObject({ code: "PARSE_FAILED" });
  });

  it("a session list that is not an array of sessions is PARSE_FAILED", async () => {
    const { shell, host: h } = host();
    shell.results.set("iscsi.disconnect", {
      loggedOut: null,
      sessions: [{ sessionIdentifier: 7, isPersistent: true, connections: [] }],
      otherPortals: [],
    });
    await expect(h.disconnectTarget(portal, iqn)).rejects.toMatchObject({ code: "PARSE_FAILED" });
    for (const bad of [{ loggedOut: -1 }, { loggedOut: "1" }, {}, "done"]) {
      shell.results.set("iscsi.disconnect", bad);
      await expect(h.disconnectTarget(portal, iqn)).rejects.toMatchObject({
        code: "PARSE_FAILED",
      });
    }
    expect(shell.calls.map((c) => c.script.name)).not.toContain("iscsi.logout");
  });

  it("leaves a shell it was given open", async () => {
    const shell = new FakePowerShell();
    await new Iscsi({ shell }).close();
    expect(shell.closed).toBe(false);
  });

  it("closes the shell it created itself", async () => {
    const iscsi = new Iscsi();
    await iscsi.close();
    await expect(iscsi.listTargetPortals()).rejects.toMatchObject({ code: "ABORTED" });
  });
});

describe("the scripts", () => {
  it("are named iscsi.* and use only Windows PowerShell 5.1 syntax", () => {
    for (const [key, script] of Object.entries(iscsiScripts)) {
      expect(script.name).toBe(`iscsi.${key}`);
      expect(script.text).not.toMatch(/\?\?|\?\.|&&|\|\||-AsArray|-Parallel|-AsHashtable|\$env:/i);
      expect(script.text).not.toMatch(/ \? [^{]/);
    }
  });

  it.each(["logout", "disconnect"])(
    "%s unregisters every persistent login before the first logout",
    (name) => {
      const text = iscsiScripts[name]?.text ?? "";
      const unregister = text.indexOf("Unregister-IscsiSession");
      const disconnect = text.indexOf("Disconnect-IscsiTarget");
      expect(unregister).toBeGreaterThan(-1);
      expect(disconnect).toBeGreaterThan(unregister);
    },
  );

  it("disconnect lists the sessions once and reuses them to find a session's target", () => {
    const text = iscsiScripts.disconnect?.text ?? "";
    expect(text.match(/Get-IscsiSession/g)).toHaveLength(1);
    expect(text).toContain("$entry.session | Get-IscsiTarget");
  });

  it("getTargetDisks maps sessions to disks with Get-Disk -iSCSISession", () => {
    expect(iscsiScripts.targetDisks?.text).toContain("Get-Disk -iSCSISession $_");
  });
});
