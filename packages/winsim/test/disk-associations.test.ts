import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { useHost } from "./host.js";

// Get-Disk's association sets other than iSCSI (tested in iscsi.test.ts), with stand-in CIM objects.
const associated = ps("winsim.test.diskAssociations")`
  param([string]$Class, [string]$FriendlyName)
  $o = [pscustomobject]@{ FriendlyName = $FriendlyName }
  $o.PSObject.TypeNames.Insert(0, "Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/$Class")
  ,@($o | Get-Disk | ForEach-Object { $_.Number })
`;

describeWithPwsh("Get-Disk association sets", (pwsh) => {
  const host = useHost(pwsh, {
    disks: [{ number: 1 }, { number: 2, busType: "Storage Spaces", friendlyName: "pool-vd" }],
  });

  it("lists every disk of the host's storage subsystem and node", async () => {
    for (const cls of ["MSFT_StorageSubSystem", "MSFT_StorageNode"]) {
      expect(await host.shell.run(associated, { Class: cls, FriendlyName: "" })).toEqual([0, 1, 2]);
    }
  });

  it("maps a virtual disk to its Storage Spaces disk, and a storage job to none", async () => {
    const vd = { Class: "MSFT_VirtualDisk", FriendlyName: "pool-vd" };
    expect(await host.shell.run(associated, vd)).toEqual([2]);
    const job = { Class: "MSFT_StorageJob", FriendlyName: "x" };
    expect(await host.shell.run(associated, job)).toEqual([]);
    expect(host.sim.calls().every((c) => c.outcome === "ok")).toBe(true);
  });
});
