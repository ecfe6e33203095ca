import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { useHost } from "./host.js";

// The association sets of Initialize-Disk, Get-Partition and Get-Volume, fed stand-in CIM objects.
const piped = ps("winsim.test.storageAssociations")`
  param([string]$Command, [string]$Class, [string]$FriendlyName)
  $o = [pscustomobject]@{ FriendlyName = $FriendlyName }
  $o.PSObject.TypeNames.Insert(0, "Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/$Class")
  switch ($Command) {
    'Get-Partition' { ,@($o | Get-Partition | ForEach-Object { "$($_.DiskNumber)/$($_.PartitionNumber)" }) }
    'Get-Volume' { ,@($o | Get-Volume | ForEach-Object { $_.FileSystemLabel }) }
    'Initialize-Disk' { $o | Initialize-Disk -PartitionStyle GPT; ,@(Get-Disk | ForEach-Object { "$($_.Number):$($_.PartitionStyle)" }) }
  }
`;

describeWithPwsh("storage association sets", (pwsh) => {
  const host = useHost(pwsh, {
    systemDisk: false,
    disks: [
      { number: 1, partitions: [{ label: "one" }] },
      { number: 2, busType: "Storage Spaces", friendlyName: "pool-vd" },
    ],
  });

  it("Get-Partition -StorageSubSystem lists every partition of the host", async () => {
    const got = await host.shell.run(piped, {
      Command: "Get-Partition",
      Class: "MSFT_StorageSubSystem",
    });
    expect(got).toEqual(["1/1", "1/2"]);
  });

  it("Get-Volume: the subsystem and node hold every volume; pools, images, shares and jobs none", async () => {
    for (const cls of ["MSFT_StorageSubSystem", "MSFT_StorageNode"]) {
      expect(await host.shell.run(piped, { Command: "Get-Volume", Class: cls })).toEqual(["one"]);
    }
    for (const cls of [
      "MSFT_DiskImage",
      "MSFT_StoragePool",
      "MSFT_StorageFileServer",
      "MSFT_FileShare",
      "MSFT_StorageJob",
    ]) {
      expect(await host.shell.run(piped, { Command: "Get-Volume", Class: cls })).toEqual([]);
    }
    expect(host.sim.calls().every((c) => c.outcome === "ok")).toBe(true);
  });

  it("Initialize-Disk -VirtualDisk initialises the virtual disk's Storage Spaces disk only", async () => {
    const args = { Command: "Initialize-Disk", Class: "MSFT_VirtualDisk" };
    expect(await host.shell.run(piped, { ...args, FriendlyName: "other" })).toEqual([
      "1:GPT",
      "2:RAW",
    ]);
    expect(await host.shell.run(piped, { ...args, FriendlyName: "pool-vd" })).toEqual([
      "1:GPT",
      "2:GPT",
    ]);
  });
});
