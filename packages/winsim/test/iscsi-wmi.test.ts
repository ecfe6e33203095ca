// root/wmi MSiSCSIInitiator_SessionClass: every session with its connections and disk numbers in
// one Get-CimInstance call (issue #37: ownership from one listing, not a query per target).
import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { failure } from "./host.js";
import { chapIqn, iscsiScenario, openIqn, portalAddress, useIscsiHost } from "./iscsi-host.js";

const connect = ps("winsim.test.wmi.connect")`
  param([string]$Iqn, [string]$Auth, [string]$User, [string]$ChapSecret)
  $null = if ($Auth -eq 'NONE') {
    Connect-IscsiTarget -NodeAddress $Iqn -TargetPortalAddress '10.0.0.5'
  } else {
    Connect-IscsiTarget -NodeAddress $Iqn -TargetPortalAddress '10.0.0.5' -AuthenticationType $Auth -ChapUsername $User -ChapSecret $ChapSecret
  }
`;

const sessions = ps("winsim.test.wmi.sessions")`
  param([string]$Namespace, [string]$Class)
  ,@(Get-CimInstance -Namespace $Namespace -ClassName $Class | ForEach-Object {
    [pscustomobject]@{
      id = $_.SessionId
      target = $_.TargetName
      types = @($_.PSObject.TypeNames)[0]
      connections = @($_.ConnectionInformation | ForEach-Object { "$($_.TargetAddress):$($_.TargetPort)" })
      devices = @($_.Devices | ForEach-Object { [pscustomobject]@{ number = $_.DeviceNumber; lun = $_.ScsiLun; type = $_.DeviceType; legacy = $_.LegacyName } })
    }
  })
`;

const msftSessions = ps("winsim.test.wmi.msft")`
  ,@(Get-IscsiSession | ForEach-Object { $_.SessionIdentifier })
`;

const wmi = { Namespace: "root\\wmi", Class: "MSiSCSIInitiator_SessionClass" };

describeWithPwsh("root/wmi MSiSCSIInitiator_SessionClass on the simulated host", (pwsh) => {
  const host = useIscsiHost(pwsh);
  const withPortal = () => ({ ...iscsiScenario(), portals: [{ address: portalAddress }] });

  it("lists every session with its target, connections and disk numbers, in one logged call", async () => {
    host.reset(withPortal());
    expect(await host.shell.run(sessions, wmi)).toEqual([]);
    await host.shell.run(connect, { Iqn: openIqn, Auth: "NONE" });
    await host.shell.run(connect, {
      Iqn: chapIqn,
      Auth: "ONEWAYCHAP",
      User: "someuser",
      ChapSecret: "verysecretpass",
    });
    host.sim.clearCalls();
    const listed = await host.shell.run<
      {
        id: string;
        target: string;
        types: string;
        connections: string[];
        devices: { number: number; lun: number; type: number; legacy: string }[];
      }[]
    >(sessions, wmi);
    expect(host.sim.calls().map((c) => c.command)).toEqual(["Get-CimInstance"]);
    expect(listed.map((s) => s.id)).toEqual(await host.shell.run(msftSessions));
    expect(listed.map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        target: openIqn.toLowerCase(),
        types:
          "Microsoft.Management.Infrastructure.CimInstance#root/wmi/MSiSCSIInitiator_SessionClass",
        connections: [`${portalAddress}:3260`],
        devices: [
          { number: 1, lun: 0, type: 7, legacy: "\\\\.\\PhysicalDrive1" },
          { number: 2, lun: 1, type: 7, legacy: "\\\\.\\PhysicalDrive2" },
        ],
      },
      {
        target: chapIqn.toLowerCase(),
        types:
          "Microsoft.Management.Infrastructure.CimInstance#root/wmi/MSiSCSIInitiator_SessionClass",
        connections: [`${portalAddress}:3260`],
        devices: [{ number: 3, lun: 0, type: 7, legacy: "\\\\.\\PhysicalDrive3" }],
      },
    ]);
  });

  it("fails with the initiator service stopped, and for a class root/wmi does not have", async () => {
    host.reset({ ...withPortal(), serviceRunning: false });
    const stopped = await failure(host.shell.run(sessions, wmi));
    expect(stopped.record?.fullyQualifiedErrorId).toMatch(/^HRESULT 0x80041001,/);
    host.reset(withPortal());
    const unknown = await failure(
      host.shell.run(sessions, { Namespace: "root/wmi", Class: "MSiSCSIInitiator_Nothing" }),
    );
    expect(unknown.record?.fullyQualifiedErrorId).toMatch(/^HRESULT 0x80041010,/);
  });
});
