import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { describe, expect, it } from "vitest";
import { failure } from "./host.js";
import {
  buildIscsiHostNames,
  buildIscsiState,
  iscsiHostNameResolver,
  resolveIscsiHostName,
  type IscsiSpec,
  type SimState,
} from "../src/index.js";
import { GiB, useIscsiHost } from "./iscsi-host.js";

const mixedIqn = "iqn.2003-01.org.Example:Vol-A";

/** Servers by IP: 10.0.0.5 named san1.corp (and SAN.corp), the loopback pair, and 10.0.0.6. */
function namedServers(): IscsiSpec {
  const targets = [{ iqn: mixedIqn, luns: [{ size: GiB }] }];
  return {
    servers: [
      { address: "10.0.0.5", names: ["san1.corp"], targets },
      { address: "127.0.0.1", targets },
      { address: "10.0.0.6", names: ["san1.corp"], port: 3261, targets },
    ],
  };
}

const connectVia = ps("winsim.test.connectVia")`
  param([string]$Address, [string]$Iqn)
  New-IscsiTargetPortal -TargetPortalAddress $Address | Out-Null
  $s = Connect-IscsiTarget -NodeAddress $Iqn -TargetPortalAddress $Address
  [pscustomobject]@{
    portals = @(Get-IscsiTargetPortal | ForEach-Object { $_.TargetPortalAddress })
    targets = @(Get-IscsiTarget | ForEach-Object { $_.NodeAddress })
    session = $s.TargetNodeAddress
    connections = @(Get-IscsiConnection -IscsiSession $s | ForEach-Object { $_.TargetAddress })
  }
`;

const addPortal = ps("winsim.test.addNamedPortal")`
  param([string]$Address)
  New-IscsiTargetPortal -TargetPortalAddress $Address | Out-Null
`;

const disconnectByName = ps("winsim.test.disconnectByName")`
  param([string]$Iqn)
  Disconnect-IscsiTarget -NodeAddress $Iqn -Confirm:$false
  @(Get-IscsiSession).Count
`;

const disconnectByObject = ps("winsim.test.disconnectByObject")`
  Get-IscsiTarget | Disconnect-IscsiTarget -Confirm:$false
  @(Get-IscsiSession).Count
`;

describe("the simulated host's name table", () => {
  it("always has localhost, merges server names case-insensitively and ignores a trailing dot", () => {
    const hosts = buildIscsiHostNames([
      { address: "10.0.0.5", names: ["san1.corp"] },
      { address: "10.0.0.6", names: ["SAN1.corp."] },
    ]);
    expect(hosts).toEqual([
      { name: "localhost", addresses: ["::1", "127.0.0.1"] },
      { name: "san1.corp", addresses: ["10.0.0.5", "10.0.0.6"] },
    ]);
    expect(resolveIscsiHostName(hosts, "San1.Corp.")).toEqual(["10.0.0.5", "10.0.0.6"]);
    expect(resolveIscsiHostName(hosts, "fd00::5")).toEqual(["fd00::5"]);
    expect(resolveIscsiHostName(hosts, "elsewhere.corp")).toEqual([]);
  });

  it("answers a library's resolver from the current state, and ENOTFOUND for unknown names", async () => {
    const state = { iscsi: buildIscsiState(namedServers(), "/r") } as SimState;
    const resolve = iscsiHostNameResolver({ state: () => state });
    await expect(resolve("localhost")).resolves.toEqual(["::1", "127.0.0.1"]);
    await expect(resolve("san1.corp")).resolves.toEqual(["10.0.0.5", "10.0.0.6"]);
    await expect(resolve("gone.corp")).rejects.toMatchObject({ code: "ENOTFOUND" });
  });

  it("takes servers by IP only, so no scenario can make a connection report a name", () => {
    expect(() => buildIscsiState({ servers: [{ address: "san1.corp" }] }, "/r")).toThrow(
      RangeError,
    );
  });
});

describeWithPwsh("the simulated initiator with host names and mixed-case IQNs", (pwsh) => {
  const host = useIscsiHost(pwsh, { iscsi: namedServers() });

  it("keeps the registered name on the portal but reports the server's IP on the connection", async () => {
    host.reset();
    const result = await host.shell.run(connectVia, { Address: "SAN1.corp", Iqn: mixedIqn });
    expect(result).toEqual({
      portals: ["SAN1.corp"],
      targets: [mixedIqn],
      session: mixedIqn.toLowerCase(),
      connections: ["10.0.0.5"],
    });
  });

  it("resolves localhost to ::1 then 127.0.0.1 and connects to the first with a server", async () => {
    host.reset();
    const result = await host.shell.run(connectVia, { Address: "localhost", Iqn: mixedIqn });
    expect(result).toMatchObject({ portals: ["localhost"], connections: ["127.0.0.1"] });
  });

  it("finds no server for a name outside its table (no real DNS): 0xefff0003", async () => {
    host.reset();
    const error = await failure(host.shell.run(addPortal, { Address: "example.com" }));
    expect(error.record?.fullyQualifiedErrorId).toBe("HRESULT 0xefff0003,New-IscsiTargetPortal");
  });

  it("filters Disconnect-IscsiTarget -NodeAddress exactly against the target's own spelling", async () => {
    host.reset();
    await host.shell.run(connectVia, { Address: "10.0.0.5", Iqn: mixedIqn });
    // The session's (lower-cased) name is not the target's key.
    const error = await failure(host.shell.run(disconnectByName, { Iqn: mixedIqn.toLowerCase() }));
    expect(error.record?.fullyQualifiedErrorId).toBe(
      "CmdletizationQuery_NotFound_NodeAddress,Disconnect-IscsiTarget",
    );
    expect(host.sim.state().iscsi?.sessions).toHaveLength(1);
    expect(await host.shell.run(disconnectByName, { Iqn: mixedIqn })).toBe(0);
  });

  it("logs out a target piped from Get-IscsiTarget, whatever its case", async () => {
    host.reset();
    await host.shell.run(connectVia, { Address: "10.0.0.5", Iqn: mixedIqn });
    expect(await host.shell.run(disconnectByObject)).toBe(0);
  });
});
