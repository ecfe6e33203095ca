import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { failure } from "./host.js";
import { buildScenario, type IscsiSpec } from "../src/index.js";
import {
  chapIqn,
  iscsiScenario,
  mutualIqn,
  openIqn,
  portalAddress,
  useIscsiHost,
} from "./iscsi-host.js";

const addPortal = ps("winsim.test.addPortal")`
  param([string]$Address, [uint16]$Port)
  $p = if ($Port -eq 0) { New-IscsiTargetPortal -TargetPortalAddress $Address } else { New-IscsiTargetPortal -TargetPortalAddress $Address -TargetPortalPortNumber $Port }
  [pscustomobject]@{ address = $p.TargetPortalAddress; port = $p.TargetPortalPortNumber; portType = $p.TargetPortalPortNumber.GetType().Name; types = @($p.PSObject.TypeNames) }
`;

const listPortals = ps("winsim.test.listPortals")`
  ,@(Get-IscsiTargetPortal | ForEach-Object { "$($_.TargetPortalAddress):$($_.TargetPortalPortNumber)" })
`;

const portalByAddress = ps("winsim.test.portalByAddress")`
  param([string]$Address)
  ,@(Get-IscsiTargetPortal -TargetPortalAddress $Address | ForEach-Object { $_.TargetPortalAddress })
`;

const targets = ps("winsim.test.targets")`
  param([string]$Address)
  ,@(Get-IscsiTargetPortal -TargetPortalAddress $Address | Get-IscsiTarget | ForEach-Object { [pscustomobject]@{ iqn = $_.NodeAddress; connected = $_.IsConnected } })
`;

const connect = ps("winsim.test.connect")`
  param([string]$Iqn, [string]$Auth, [string]$User, [string]$ChapSecret, [bool]$Persistent, [bool]$Multipath)
  $s = if ($Auth -eq 'NONE') {
    Connect-IscsiTarget -NodeAddress $Iqn -TargetPortalAddress '10.0.0.5' -IsPersistent $Persistent -IsMultipathEnabled $Multipath
  } else {
    Connect-IscsiTarget -NodeAddress $Iqn -TargetPortalAddress '10.0.0.5' -AuthenticationType $Auth -ChapUsername $User -ChapSecret $ChapSecret -IsPersistent $Persistent
  }
  [pscustomobject]@{ id = $s.SessionIdentifier; target = $s.TargetNodeAddress; persistent = $s.IsPersistent; auth = $s.AuthenticationType; connected = $s.IsConnected }
`;

const sessionDisks = ps("winsim.test.sessionDisks")`
  param([string]$Iqn)
  ,@(Get-IscsiSession | Where-Object { $_.TargetNodeAddress -eq $Iqn } | ForEach-Object { Get-Disk -iSCSISession $_ } | ForEach-Object {
    [pscustomobject]@{ number = $_.Number; bus = $_.BusType; raw = $_.psBase.CimInstanceProperties['BusType'].Value; style = $_.PartitionStyle; offline = $_.IsOffline; size = $_.Size }
  })
`;

const connections = ps("winsim.test.connections")`
  ,@(Get-IscsiSession | Get-IscsiConnection | ForEach-Object { [pscustomobject]@{ address = $_.TargetAddress; port = $_.TargetPortNumber } })
`;

const disconnect = ps("winsim.test.disconnect")`
  param([string]$Iqn)
  foreach ($s in @(Get-IscsiSession | Where-Object { $_.TargetNodeAddress -eq $Iqn })) {
    Disconnect-IscsiTarget -NodeAddress $Iqn -SessionIdentifier $s.SessionIdentifier -Confirm:$false
  }
`;

const staleSessionDisks = ps("winsim.test.staleSessionDisks")`
  param([string]$Iqn)
  $s = @(Get-IscsiSession | Where-Object { $_.TargetNodeAddress -eq $Iqn })[0]
  Disconnect-IscsiTarget -NodeAddress $Iqn -Confirm:$false
  ,@(Get-Disk -iSCSISession $s)
`;

const setMutual = ps("winsim.test.setMutual")`
  param([string]$ChapSecret)
  Set-IscsiChapSecret -ChapSecret $ChapSecret
`;

const unregister = ps("winsim.test.unregister")`
  param([string]$Id)
  Unregister-IscsiSession -SessionIdentifier $Id
`;

const removePortal = ps("winsim.test.removePortal")`
  Get-IscsiTargetPortal | Remove-IscsiTargetPortal -Confirm:$false
`;

const initializeIscsiDisk = ps("winsim.test.initializeIscsiDisk")`
  $s = @(Get-IscsiSession)[0]
  $d = Get-Disk -iSCSISession $s
  $d | Set-Disk -IsOffline $false
  $d | Initialize-Disk -PartitionStyle GPT
`;

const byConnection = ps("winsim.test.byConnection")`
  ,@(Get-IscsiConnection | Get-Disk | ForEach-Object { $_.Number })
`;

describeWithPwsh("the simulated iSCSI initiator", (pwsh) => {
  const host = useIscsiHost(pwsh);

  it("lists no portals without an error, then adds one on port 3260 and discovers its targets", async () => {
    host.reset();
    expect(await host.shell.run(listPortals)).toEqual([]);
    const added = await host.shell.run<{ port: number; portType: string; types: string[] }>(
      addPortal,
      { Address: portalAddress, Port: 0 },
    );
    expect(added).toMatchObject({ port: 3260, portType: "UInt16" });
    expect(added.types[0]).toBe(
      "Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSITargetPortal",
    );
    expect(await host.shell.run(listPortals)).toEqual([`${portalAddress}:3260`]);
    expect(await host.shell.run(targets, { Address: portalAddress })).toEqual([
      { iqn: openIqn, connected: false },
      { iqn: chapIqn, connected: false },
      { iqn: mutualIqn, connected: false },
    ]);
  });

  it("reports an unreachable portal and an unknown filter value as the real cmdlets do", async () => {
    host.reset();
    const unreachable = await failure(host.shell.run(addPortal, { Address: "10.9.9.9", Port: 0 }));
    expect(unreachable.record?.fullyQualifiedErrorId).toBe(
      "HRESULT 0xefff0003,New-IscsiTargetPortal",
    );
    expect(unreachable.record?.exceptionType).toBe("CsiProxy.WinSim.CimException");
    const missing = await failure(host.shell.run(portalByAddress, { Address: "10.0.0.6" }));
    expect(missing.record?.fullyQualifiedErrorId).toBe(
      "CmdletizationQuery_NotFound_TargetPortalAddress,Get-IscsiTargetPortal",
    );
  });

  it("re-discovers a target added to the server after the portal", async () => {
    host.reset({ ...iscsiSpecWithPortal(), servers: [{ address: portalAddress, targets: [] }] });
    expect(await host.shell.run(targets, { Address: portalAddress })).toEqual([]);
    host.sim.update((state) => {
      state.iscsi?.servers[0]?.targets.push({
        iqn: openIqn,
        chapUsername: null,
        chapSecret: null,
        mutualChapSecret: null,
        luns: [],
      });
    });
    await host.shell.run(
      ps("winsim.test.refresh")`Get-IscsiTargetPortal | Update-IscsiTargetPortal`,
    );
    expect(await host.shell.run(targets, { Address: portalAddress })).toEqual([
      { iqn: openIqn, connected: false },
    ]);
  });

  it("logs in: a session with a lower-cased IQN, its connection, and the LUNs as offline RAW iSCSI disks", async () => {
    host.reset(iscsiSpecWithPortal());
    const session = await host.shell.run(connect, { Iqn: openIqn.toUpperCase(), Auth: "NONE" });
    expect(session).toMatchObject({ target: openIqn.toLowerCase(), auth: "NONE", connected: true });
    expect(await host.shell.run(connections)).toEqual([{ address: portalAddress, port: 3260 }]);
    const disks = await host.shell.run(sessionDisks, { Iqn: openIqn });
    expect(disks).toEqual([
      { number: 1, bus: "iSCSI", raw: 9, style: "RAW", offline: true, size: 2 * 1024 ** 3 },
      { number: 2, bus: "iSCSI", raw: 9, style: "RAW", offline: true, size: 3 * 1024 ** 3 },
    ]);
    expect(host.sim.state().disks.map((d) => d.number)).toEqual([0, 1, 2]);
    expect(await host.shell.run(byConnection)).toEqual([1, 2]);
    const again = await failure(host.shell.run(connect, { Iqn: openIqn, Auth: "NONE" }));
    expect(again.record?.fullyQualifiedErrorId).toBe("HRESULT 0xefff003f,Connect-IscsiTarget");
    expect(again.record?.message).toBe(
      "The target has already been logged in via an iSCSI session.",
    );
  });

  it("logs out: the disks disappear and a stale session reaches no disk, without an error", async () => {
    host.reset(iscsiSpecWithPortal());
    await host.shell.run(connect, { Iqn: openIqn, Auth: "NONE" });
    expect(await host.shell.run(staleSessionDisks, { Iqn: openIqn.toLowerCase() })).toEqual([]);
    expect(host.sim.state().disks.map((d) => d.number)).toEqual([0]);
    expect(await host.shell.run(sessionDisks, { Iqn: openIqn })).toEqual([]);
  });

  it("keeps a LUN's data across a logout: the next login shows the initialised disk again", async () => {
    host.reset(iscsiSpecWithPortal());
    await host.shell.run(connect, {
      Iqn: chapIqn,
      Auth: "ONEWAYCHAP",
      User: "someuser",
      ChapSecret: "verysecretpass",
    });
    await host.shell.run(initializeIscsiDisk);
    await host.shell.run(disconnect, { Iqn: chapIqn });
    expect(host.sim.state().partitions.some((p) => p.diskNumber === 1)).toBe(false);
    await host.shell.run(connect, {
      Iqn: chapIqn,
      Auth: "ONEWAYCHAP",
      User: "someuser",
      ChapSecret: "verysecretpass",
    });
    expect(await host.shell.run(sessionDisks, { Iqn: chapIqn })).toMatchObject([
      { number: 1, style: "GPT", offline: false },
    ]);
  });

  it("runs upstream's PS-era GetTargetDisks pipeline and democratic-csi's disk-to-session lookups", async () => {
    host.reset(iscsiSpecWithPortal());
    await host.shell.run(connect, { Iqn: openIqn, Auth: "NONE" });
    const upstream = ps("winsim.test.upstreamTargetDisks")`
      param([string]$Address, [uint16]$Port, [string]$Iqn)
      $tp = Get-IscsiTargetPortal -TargetPortalAddress $Address -TargetPortalPortNumber $Port
      $t = $tp | Get-IscsiTarget | Where-Object { $_.NodeAddress -eq $Iqn }
      $c = Get-IscsiConnection -IscsiTarget $t
      ,@($c | Get-Disk | Select-Object -ExpandProperty Number | Out-String -Stream)
    `;
    expect(
      await host.shell.run(upstream, { Address: portalAddress, Port: 3260, Iqn: openIqn }),
    ).toEqual(["1", "2"]);
    const reverse = ps("winsim.test.diskToSession")`
      [pscustomobject]@{
        fromDisk = @(Get-Disk -Number 2 | Get-IscsiSession | ForEach-Object { $_.TargetNodeAddress })
        fromSystemDisk = @(Get-Disk -Number 0 | Get-IscsiSession).Count
        fromSession = @(Get-IscsiSession | Get-Disk | ForEach-Object { $_.Number })
        portalOfSession = @(Get-IscsiSession | Get-IscsiTargetPortal | ForEach-Object { $_.TargetPortalAddress })
        targetOfSession = @(Get-IscsiSession | Get-IscsiTarget | ForEach-Object { $_.IsConnected })
      }
    `;
    expect(await host.shell.run(reverse)).toEqual({
      fromDisk: [openIqn],
      fromSystemDisk: 0,
      fromSession: [1, 2],
      portalOfSession: [portalAddress],
      targetOfSession: [true],
    });
  });

  it("fails an unknown target with 0xefff0029", async () => {
    host.reset(iscsiSpecWithPortal());
    const error = await failure(
      host.shell.run(connect, { Iqn: "iqn.2003-01.org.example:nope", Auth: "NONE" }),
    );
    expect(error.record?.fullyQualifiedErrorId).toBe("HRESULT 0xefff0029,Connect-IscsiTarget");
    expect(error.record?.category).toBe("NotSpecified");
  });

  it("checks one-way CHAP: NONE and a wrong secret fail with 0xefff0009, the right one logs in", async () => {
    host.reset(iscsiSpecWithPortal());
    const none = await failure(host.shell.run(connect, { Iqn: chapIqn, Auth: "NONE" }));
    expect(none.record?.fullyQualifiedErrorId).toBe("HRESULT 0xefff0009,Connect-IscsiTarget");
    const wrong = await failure(
      host.shell.run(connect, {
        Iqn: chapIqn,
        Auth: "ONEWAYCHAP",
        User: "someuser",
        ChapSecret: "wrongsecret12",
      }),
    );
    expect(wrong.record?.fullyQualifiedErrorId).toBe("HRESULT 0xefff0009,Connect-IscsiTarget");
    const lower = await failure(
      host.shell.run(connect, {
        Iqn: chapIqn,
        Auth: "onewaychap",
        User: "someuser",
        ChapSecret: "verysecretpass",
      }),
    );
    expect(lower.record?.fullyQualifiedErrorId).toBe("HRESULT 0xefff0009,Connect-IscsiTarget");
    const short = await failure(
      host.shell.run(connect, {
        Iqn: chapIqn,
        Auth: "ONEWAYCHAP",
        User: "someuser",
        ChapSecret: "short",
      }),
    );
    expect(short.record?.fullyQualifiedErrorId).toBe("HRESULT 0xefff004a,Connect-IscsiTarget");
    const ok = await host.shell.run(connect, {
      Iqn: chapIqn,
      Auth: "ONEWAYCHAP",
      User: "someuser",
      ChapSecret: "verysecretpass",
    });
    expect(ok).toMatchObject({ auth: "ONEWAYCHAP", connected: true });
  });

  it("checks mutual CHAP against the initiator's secret, and never logs a secret", async () => {
    host.reset(iscsiSpecWithPortal());
    await host.shell.run(setMutual, { ChapSecret: "made-up-pass" });
    const login = {
      Iqn: mutualIqn,
      Auth: "MUTUALCHAP",
      User: "someuser",
      ChapSecret: "verysecretpass",
    };
    const wrong = await failure(host.shell.run(connect, login));
    expect(wrong.record?.fullyQualifiedErrorId).toBe("HRESULT 0xefff0009,Connect-IscsiTarget");
    await host.shell.run(setMutual, { ChapSecret: "ssaptercesyrev" });
    expect(await host.shell.run(connect, login)).toMatchObject({ auth: "MUTUALCHAP" });
    const log = JSON.stringify(host.sim.calls());
    for (const secret of ["made-up-pass", "ssaptercesyrev", "verysecretpass"]) {
      expect(log).not.toContain(secret);
    }
    const calls = host.sim.calls().filter((c) => c.command === "Set-IscsiChapSecret");
    expect(calls.map((c) => c.parameters.ChapSecret)).toEqual(["[REDACTED]", "[REDACTED]"]);
  });

  it("keeps a persistent login as a favorite after logout until it is unregistered", async () => {
    host.reset(iscsiSpecWithPortal());
    const session = await host.shell.run<{ id: string; persistent: boolean }>(connect, {
      Iqn: openIqn,
      Auth: "NONE",
      Persistent: true,
    });
    expect(session.persistent).toBe(true);
    await host.shell.run(disconnect, { Iqn: openIqn });
    expect(host.sim.state().iscsi?.favorites.map((f) => f.sessionIdentifier)).toEqual([session.id]);
    await host.shell.run(unregister, { Id: session.id });
    expect(host.sim.state().iscsi?.favorites).toEqual([]);
    const gone = await failure(host.shell.run(unregister, { Id: session.id }));
    expect(gone.record?.fullyQualifiedErrorId).toBe("HRESULT 0xefff001c,Unregister-IscsiSession");
  });

  it("shares a LUN's disk between two multipath sessions until the last one logs out", async () => {
    host.reset(iscsiSpecWithPortal());
    await host.shell.run(connect, { Iqn: openIqn, Auth: "NONE", Multipath: true });
    await host.shell.run(connect, { Iqn: openIqn, Auth: "NONE", Multipath: true });
    const disks = await host.shell.run<{ number: number }[]>(sessionDisks, { Iqn: openIqn });
    expect(disks.map((d) => d.number)).toEqual([1, 2, 1, 2]);
    const ids = host.sim.state().iscsi?.sessions.map((s) => s.sessionIdentifier) ?? [];
    await host.shell.run(
      ps(
        "winsim.test.logoutOne",
      )`param([string]$Id) Disconnect-IscsiTarget -SessionIdentifier $Id -Confirm:$false`,
      { Id: ids[0] },
    );
    expect(host.sim.state().disks.map((d) => d.number)).toEqual([0, 1, 2]);
    await host.shell.run(disconnect, { Iqn: openIqn });
    expect(host.sim.state().disks.map((d) => d.number)).toEqual([0]);
  });

  it("removes portals from the pipeline and leaves sessions logged in", async () => {
    host.reset(iscsiSpecWithPortal());
    await host.shell.run(connect, { Iqn: openIqn, Auth: "NONE" });
    await host.shell.run(removePortal);
    expect(await host.shell.run(listPortals)).toEqual([]);
    expect(host.sim.state().iscsi?.sessions).toHaveLength(1);
  });

  it("follows the System area's MSiSCSI service when the host declares one", async () => {
    host.reset(iscsiSpecWithPortal());
    const system = buildScenario({ system: {} }, host.sim.root).state.system;
    host.sim.update((state) => {
      if (system !== undefined) state.system = system;
    });
    const stopped = await failure(host.shell.run(listPortals));
    expect(stopped.record?.fullyQualifiedErrorId).toBe("HRESULT 0xefff003e,Get-IscsiTargetPortal");
    await host.shell.run(ps("winsim.test.startIscsi")`Start-Service -Name MSiSCSI`);
    expect(await host.shell.run(listPortals)).toEqual([`${portalAddress}:3260`]);
  });

  it("fails Remove-IscsiTargetPortal -TargetPortalPortNumber with a type mismatch, as Windows does", async () => {
    host.reset(iscsiSpecWithPortal());
    const byPort = ps("winsim.test.removeByPort")`
      Remove-IscsiTargetPortal -TargetPortalAddress '10.0.0.5' -TargetPortalPortNumber 3260 -Confirm:$false
    `;
    const error = await failure(host.shell.run(byPort));
    expect(error.record?.fullyQualifiedErrorId).toBe("HRESULT 0x80041005,Remove-IscsiTargetPortal");
    expect(await host.shell.run(listPortals)).toEqual([`${portalAddress}:3260`]);
    const byAddress = ps("winsim.test.removeByAddress")`
      Remove-IscsiTargetPortal -TargetPortalAddress '10.0.0.5' -Confirm:$false
    `;
    await host.shell.run(byAddress);
    expect(await host.shell.run(listPortals)).toEqual([]);
  });

  it("fails every cmdlet with 0xefff003e while the MSiSCSI service is stopped", async () => {
    host.reset({ ...iscsiSpecWithPortal(), serviceRunning: false });
    const error = await failure(host.shell.run(listPortals));
    expect(error.record?.fullyQualifiedErrorId).toBe("HRESULT 0xefff003e,Get-IscsiTargetPortal");
    expect(error.record?.message).toBe(
      "The Microsoft iSCSI Initiator Service is not running. Please start the service and retry.",
    );
  });
});

function iscsiSpecWithPortal(): IscsiSpec {
  return { ...iscsiScenario(), portals: [{ address: portalAddress }] };
}
