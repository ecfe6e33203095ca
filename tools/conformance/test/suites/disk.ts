import { describe, expect, it } from "vitest";
import { ctx, expectCode } from "./context.js";

export function diskPart(): void {
  describe("disk", () => {
    it("lists SCSI-style locations and rescans", async () => {
      const { disk } = ctx().groups;
      const { diskLocations } = await disk.listDiskLocations();
      expect(diskLocations.size).toBeGreaterThan(0);
      await expect(disk.rescan()).resolves.toEqual({});
    });

    it("lists the blank disk among the disks whose IDs it reads (or could not read)", async () => {
      const [a] = ctx().host.blankDisks;
      const { diskIds, errors } = await ctx().groups.disk.listDiskIds();
      expect(diskIds.has(a!) || errors.some((e) => e.diskNumber === a)).toBe(true);
    });

    it("brings the blank disk online, twice, and partitions it once", async () => {
      const { disk, volume } = ctx().groups;
      const diskNumber = ctx().host.blankDisks[0]!;
      await disk.setDiskState({ diskNumber, isOnline: true });
      await disk.setDiskState({ diskNumber, isOnline: true });
      expect(await disk.getDiskState({ diskNumber })).toEqual({ isOnline: true });
      await disk.partitionDisk({ diskNumber });
      await disk.partitionDisk({ diskNumber });
      expect((await volume.listVolumesOnDisk({ diskNumber })).volumeIds).toHaveLength(1);
    });

    it("reports the disk size exactly, as a number below 2^53", async () => {
      const diskNumber = ctx().host.blankDisks[0]!;
      const { totalBytes } = await ctx().groups.disk.getDiskStats({ diskNumber });
      expect(totalBytes).toBe(ctx().host.blankDiskBytes);
    });

    it("reports a size above 2^53 exactly, as a bigint (only where the host has such a disk)", async (test) => {
      const huge = ctx().host.hugeDisk;
      // A VHDX holds at most 64 TiB; only the simulator can show a disk above 8 PiB.
      if (huge === undefined) return test.skip();
      const { totalBytes } = await ctx().groups.disk.getDiskStats({ diskNumber: huge.diskNumber });
      expect(totalBytes).toBe(huge.bytes);
    });

    it("answers NOT_FOUND for a missing disk and an unknown page 83 id", async () => {
      const { disk } = ctx().groups;
      await expectCode(disk.getDiskState({ diskNumber: 4_000_000 }), "NOT_FOUND");
      await expectCode(disk.getDiskStats({ diskNumber: 4_000_000 }), "NOT_FOUND");
      await expectCode(disk.partitionDisk({ diskNumber: 4_000_000 }), "NOT_FOUND");
      await expectCode(
        disk.getDiskNumberByPage83({ page83: "60000000000000000000000000c5f0ff" }),
        "NOT_FOUND",
      );
    });
  });
}
