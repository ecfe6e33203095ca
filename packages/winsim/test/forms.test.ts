import { join } from "node:path";
import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { scenarios } from "../src/index.js";
import { useHost } from "./host.js";

const forms = ps("winsim.test.forms")`
  param([string]$Root)
  $out = [ordered]@{}
  $out.Positional = (Get-Partition 0 3).Type
  $out.ByLetter = (Get-Partition -DriveLetter C).PartitionNumber
  $out.VolumeByLetter = (Get-Volume C).FileSystem
  $out.DisksOfPartitions = @(Get-Partition -DiskNumber 1 | Get-Disk | ForEach-Object { $_.Number })
  $out.VisibleVolumes = @(Get-Volume).Count
  Get-Disk -Number 5 | Set-Disk -IsOffline $false
  $out.Disk5Offline = (Get-Disk 5).IsOffline
  $out.Formatted = @(Format-Volume -DriveLetter E -FileSystem ReFS -Confirm:$false | ForEach-Object { $_.FileSystemType })
  New-Item -ItemType Directory (Join-Path $Root m1) | Out-Null
  Add-PartitionAccessPath -DiskNumber 2 -PartitionNumber 2 -AccessPath (Join-Path $Root m1)
  Add-PartitionAccessPath -DiskNumber 1 -PartitionNumber 2 -AssignDriveLetter
  $out.Assigned = [string](Get-Partition 1 2).DriveLetter
  Remove-PartitionAccessPath -DiskNumber 1 -PartitionNumber 2 -AccessPath 'F:\'
  $out.AfterRemove = [int](Get-Partition 1 2).DriveLetter
  $out.Disk2Paths = (Get-Partition 2 2).AccessPaths
  [pscustomobject]$out
`;

describeWithPwsh("named and positional forms", (pwsh) => {
  const host = useHost(pwsh, scenarios.demo());

  it("binds positions, drive letters and by-number selectors like the real cmdlets", async () => {
    const out = await host.shell.run<Record<string, unknown>>(forms, { Root: host.sim.root });
    const guid = host.sim
      .state()
      .partitions.find((p) => p.diskNumber === 2 && p.partitionNumber === 2)?.volume;
    expect(out).toEqual({
      Positional: "Basic",
      ByLetter: 3,
      VolumeByLetter: "NTFS",
      DisksOfPartitions: [1, 1],
      VisibleVolumes: 5,
      Disk5Offline: false,
      Formatted: ["ReFS"],
      Assigned: "F",
      AfterRemove: 0,
      Disk2Paths: ["D:\\", `${join(host.sim.root, "m1")}/`, `\\\\?\\Volume{${guid}}\\`],
    });
  });
});
