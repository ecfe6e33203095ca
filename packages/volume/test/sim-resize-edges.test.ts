import type { PowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import type { Simulator } from "@csi-proxy/winsim";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Volume } from "../src/index.js";
import { codeOf, gib, mibNumber, startSimulator, volumeIdOf } from "./sim-helpers.js";

// Resize edge cases of issue #20 B3: defragsvc off (aws-ebs-csi-driver#2877) and a storage
// cache that still holds the disk's old size after a cloud grew it (aws-ebs-csi-driver#2881).
describeWithPwsh("resize edge cases on the simulator", (pwsh) => {
  let sim: Simulator;
  let shell: PowerShell;
  let volume: Volume;
  let volumeId: string;

  beforeEach(async () => {
    ({ sim, shell, volume } = await startSimulator(pwsh, {
      disks: [
        { number: 1, size: gib, partitionStyle: "GPT", partitions: [{ fileSystem: "NTFS" }] },
      ],
    }));
    volumeId = volumeIdOf(sim, 1);
  });

  afterEach(async () => {
    await shell.close();
    await sim.dispose();
  });

  function grow(size: number, cacheRefreshed: boolean): void {
    sim.update((state) => {
      const disk = state.disks.find((d) => d.number === 1);
      if (disk === undefined) return;
      if (!cacheRefreshed) disk.cachedSize = disk.size;
      disk.size = size;
    });
  }

  function dataPartition() {
    const partition = sim.state().partitions.find((p) => p.diskNumber === 1 && p.volume !== null);
    if (partition === undefined) throw new Error("no data partition");
    return partition;
  }

  // GPT: the last usable byte is 16896 bytes (backup GPT) below the end, rounded down to 1 MiB.
  const usableEnd = (size: number) => Math.floor((size - 16896) / mibNumber) * mibNumber;

  it("defragsvc off: a request of the disk's size is clamped to the layout's maximum and grows", async () => {
    grow(2 * gib, true);
    sim.fault({
      command: "Get-PartitionSupportedSize",
      action: "error",
      error: { message: "Failed", errorId: "StorageWMI 4", category: "NotSpecified" },
    });
    expect(await volume.resizeVolume({ volumeId, sizeBytes: 2 * gib })).toEqual({ resized: true });
    const partition = dataPartition();
    expect(partition.offset + partition.size).toBe(usableEnd(2 * gib));
    expect(sim.calls().some((c) => c.command === "Get-PartitionSupportedSize")).toBe(true);
  });

  it("stale cache: an explicit resize refreshes it first, then grows to the new size", async () => {
    grow(2 * gib, false);
    sim.clearCalls();
    expect(await volume.resizeVolume({ volumeId, sizeBytes: 2 * gib })).toEqual({ resized: true });
    const partition = dataPartition();
    expect(partition.offset + partition.size).toBe(usableEnd(2 * gib));
    const commands = sim.calls().map((c) => c.command);
    expect(commands.indexOf("Update-HostStorageCache")).toBeGreaterThanOrEqual(0);
    expect(commands.indexOf("Update-HostStorageCache")).toBeLessThan(
      commands.indexOf("Get-PartitionSupportedSize"),
    );
    expect(sim.state().disks.find((d) => d.number === 1)?.cachedSize).toBeUndefined();
  });

  it("a size the disk does not reach, even after the refresh, fails retryably and changes nothing", async () => {
    const before = dataPartition().size;
    sim.clearCalls();
    const error = await volume
      .resizeVolume({ volumeId, sizeBytes: 2 * gib })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "FAILED_PRECONDITION" });
    expect((error as Error).message).toContain("retry");
    expect(sim.calls().some((c) => c.command === "Resize-Partition")).toBe(false);
    expect(dataPartition().size).toBe(before);
    // Once the grow reaches the host, the retry succeeds.
    grow(2 * gib, false);
    expect(await volume.resizeVolume({ volumeId, sizeBytes: 2 * gib })).toEqual({ resized: true });
  });

  it("an unreachable size is refused the same way while defragsvc is off", async () => {
    sim.fault({
      command: "Get-PartitionSupportedSize",
      action: "error",
      error: { message: "Failed", errorId: "StorageWMI 4", category: "NotSpecified" },
    });
    expect(await codeOf(volume.resizeVolume({ volumeId, sizeBytes: 2 * gib }))).toBe(
      "FAILED_PRECONDITION",
    );
  });
});
