import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { failure, useHost } from "./host.js";

const gib = 1024 ** 3;
const mib = 1024 ** 2;

const sizes = ps("winsim.test.cacheSizes")`
  param([bool]$Refresh)
  if ($Refresh) { Update-HostStorageCache }
  $disk = Get-Disk -Number 1
  $partition = @(Get-Partition -DiskNumber 1 | Where-Object { $_.Type -ne 'Reserved' })[0]
  [pscustomobject]@{
    DiskSize = $disk.Size
    LargestFreeExtent = $disk.LargestFreeExtent
    SizeMax = ($partition | Get-PartitionSupportedSize).SizeMax
    End = $partition.Offset + $partition.Size
  }
`;

const grow = ps("winsim.test.cacheGrow")`
  param([uint64]$Size)
  Get-Partition -DiskNumber 1 | Where-Object { $_.Type -ne 'Reserved' } | Resize-Partition -Size $Size
`;

// aws-ebs-csi-driver#2881: after a cloud grew a disk the Storage provider's cache keeps the old
// size until Update-HostStorageCache; the simulator models that with DiskState.cachedSize.
describeWithPwsh("the storage cache after a disk grew (cachedSize)", (pwsh) => {
  const host = useHost(pwsh, {
    disks: [{ number: 1, size: gib, partitionStyle: "GPT", partitions: [{ fileSystem: "NTFS" }] }],
  });

  it("Get-Disk, Get-PartitionSupportedSize and Resize-Partition see the old size until the refresh", async () => {
    const before = await host.shell.run<{ SizeMax: number; End: number }>(sizes, {
      Refresh: false,
    });
    host.sim.update((state) => {
      const disk = state.disks.find((d) => d.number === 1);
      if (disk) Object.assign(disk, { cachedSize: disk.size, size: 2 * gib });
    });
    expect(await host.shell.run(sizes, { Refresh: false })).toEqual(before);
    const stale = await failure(host.shell.run(grow, { Size: 2 * gib - 64 * mib }));
    expect(stale.record?.fullyQualifiedErrorId).toMatch(/^StorageWMI 4097,/);

    const after = await host.shell.run<{ DiskSize: number; SizeMax: number }>(sizes, {
      Refresh: true,
    });
    expect(after.DiskSize).toBe(2 * gib);
    expect(after.SizeMax).toBe(before.SizeMax + gib);
    expect(host.sim.state().disks.find((d) => d.number === 1)?.cachedSize).toBeUndefined();
    await host.shell.run(grow, { Size: 2 * gib - 64 * mib });
  });
});
