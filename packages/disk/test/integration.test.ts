import { describeWithPwsh } from "@csi-proxy/test-utils";
import { scenarios } from "@csi-proxy/winsim";
import { describe, expect, it } from "vitest";
import { DiskNotFoundError, isDiskReadOnlyError } from "../src/index.js";
import { causeId, failure, GiB, useSimHost } from "./sim-setup.js";

const msrType = "{e3c9e316-0b5c-4db8-817d-f92df00215ae}";
const basicType = "{ebd0a0a2-b9e5-4433-87c0-68b6b72699c7}";

describeWithPwsh("Disk on the simulated host (session mode)", (pwsh) => {
  const host = useSimHost(pwsh, "session");

  describe("listDiskLocations", () => {
    it("parses SCSI and Bus-style locations and skips null, VHD and short NVMe ones", async () => {
      const h = host();
      h.reset({
        disks: [
          { number: 1, lun: 3 },
          { number: 2, busType: "NVMe" },
          { number: 3, busType: "File Backed Virtual" },
          { number: 4, location: "C:\\ProgramData\\containerd\\sandbox.vhdx" },
          { number: 5, busType: "NVMe", location: "Integrated : Bus 0 : Adapter 0" },
          { number: 6, location: "PCI Slot 0 : Adapter 0 : Channel 0 : Device 0" },
        ],
      });
      const { diskLocations } = await h.disk.listDiskLocations({});
      expect([...diskLocations].sort(([a], [b]) => a - b)).toEqual([
        [0, { adapter: "0", bus: "", target: "0", lunId: "0" }],
        [1, { adapter: "0", bus: "", target: "0", lunId: "3" }],
        [2, { adapter: "1", bus: "0", target: "0", lunId: "0" }],
      ]);
      expect(h.commands()).toEqual(["Get-Disk"]);
    });

    it("returns an empty map on a host whose disks have no SCSI location", async () => {
      const h = host();
      h.reset({ systemDisk: { location: null }, disks: [{ number: 1, location: null }] });
      expect((await h.disk.listDiskLocations({})).diskLocations.size).toBe(0);
    });
  });

  describe("listDiskIds", () => {
    it("reads page 83 and serial numbers of every disk in one call, reporting the unreadable one", async () => {
      const h = host();
      h.reset({
        disks: [
          {
            number: 1,
            page83: { ascii: "Google  persistent-disk-1" },
            serialNumber: " ".repeat(20),
          },
          {
            number: 2,
            page83: { naa: "60022480495F67CBC95FD232E88561A7" },
            serialNumber: "  S5GENJ0N808902D  ",
          },
          {
            number: 3,
            page83: [
              { codeSet: 1, type: 3, association: 1, hex: "50014380029aa3c4" },
              {
                codeSet: 2,
                type: 8,
                association: 0,
                hex: Buffer.from("iqn.target").toString("hex"),
              },
            ],
          },
          { number: 4, page83: [{ codeSet: 1, type: 3, association: 1, hex: "aabbccdd" }] },
          { number: 5, deviceIdError: "Incorrect function.", serialNumber: "nvme-serial" },
        ],
      });
      const { diskIds, errors } = await h.disk.listDiskIds({});
      expect(diskIds.get(1)).toEqual({
        page83: "Google  persistent-disk-1",
        serialNumber: "",
        isSystemDisk: false,
      });
      expect(diskIds.get(2)).toEqual({
        page83: "60022480495f67cbc95fd232e88561a7",
        serialNumber: "S5GENJ0N808902D",
        isSystemDisk: false,
      });
      expect(diskIds.get(3)?.page83).toBe("iqn.target");
      // The scenario's system disk (disk 0, IsBoot and IsSystem) is marked as such.
      expect(diskIds.get(0)?.isSystemDisk).toBe(true);
      expect(diskIds.get(4)?.page83).toBe("");
      expect(diskIds.has(0)).toBe(true);
      expect(diskIds.has(5)).toBe(false);
      expect(errors).toEqual([
        {
          diskNumber: 5,
          path: h.sim.state().disks.find((d) => d.number === 5)?.path,
          serialNumber: "nvme-serial",
          message: "Incorrect function.",
          win32Error: expect.any(Number) as number,
        },
      ]);
      // One Get-Disk for all disks: never a call per disk.
      expect(h.commands()).toEqual(["Get-Disk"]);
    });

    it("matches upstream's ListDiskIDs/ListDiskLocations scenario on a varied host", async () => {
      const h = host();
      h.reset(scenarios.demo());
      const { diskIds, errors } = await h.disk.listDiskIds({});
      const { diskLocations } = await h.disk.listDiskLocations({});
      expect(diskIds.size).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      expect(diskLocations.size).toBeGreaterThan(0);
      for (const [number, ids] of diskIds) {
        if (ids.serialNumber !== "" && !ids.serialNumber.startsWith("nvme")) {
          expect({ number, page83: ids.page83 }).not.toEqual({ number, page83: "" });
        }
      }
      expect(diskIds.get(4)?.page83).toBe("60022480495f67cbc95fd232e88561a7");
      expect(diskIds.get(1)?.serialNumber).toBe("");
    });
  });

  describe("getDiskNumberByPage83", () => {
    it("finds a disk by its ASCII or binary identifier, exactly", async () => {
      const h = host();
      h.reset({
        disks: [
          { number: 2, page83: { ascii: "Google  persistent-disk-0" } },
          { number: 7, page83: { ascii: "Google  persistent-disk-1" } },
        ],
      });
      expect(await h.disk.getDiskNumberByPage83({ page83: "Google  persistent-disk-1" })).toEqual({
        diskNumber: 7,
      });
      const naa = h.sim.state().disks[0]?.deviceIds[0]?.hex ?? "";
      expect(await h.disk.getDiskNumberByPage83({ page83: naa })).toEqual({ diskNumber: 0 });
      const missing = await failure(
        h.disk.getDiskNumberByPage83({ page83: "Google persistent-disk-1" }),
      );
      expect(missing.code).toBe("NOT_FOUND");
    });

    it("refuses NOT_FOUND while a disk cannot be read", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1, deviceIdError: "Incorrect function." }] });
      const error = await failure(h.disk.getDiskNumberByPage83({ page83: "anything" }));
      expect(error.code).toBe("COMMAND_FAILED");
    });
  });

  describe("getDiskStats, rescan, getDiskState, setDiskState (upstream's VHD scenario)", () => {
    it("reports size and state, follows external changes and sets the state both ways", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1, busType: "File Backed Virtual", size: GiB }] });
      const { totalBytes } = await h.disk.getDiskStats({ diskNumber: 1 });
      expect(totalBytes).toBe(GiB);
      await expect(h.disk.rescan({})).resolves.toEqual({});
      expect(h.commands()).toContain("Update-HostStorageCache");

      h.sim.update((s) => {
        const d = s.disks.find((x) => x.number === 1)!;
        d.isOffline = true;
        d.offlineReason = 1;
      });
      expect(await h.disk.getDiskState({ diskNumber: 1 })).toEqual({ isOnline: false });

      await h.disk.setDiskState({ diskNumber: 1, isOnline: true });
      expect(h.sim.state().disks.find((d) => d.number === 1)?.isOffline).toBe(false);
      expect(await h.disk.getDiskState({ diskNumber: 1 })).toEqual({ isOnline: true });

      await h.disk.setDiskState({ diskNumber: 1, isOnline: false });
      expect(h.sim.state().disks.find((d) => d.number === 1)?.isOffline).toBe(true);
      expect(await h.disk.getDiskState({ diskNumber: 1 })).toEqual({ isOnline: false });
    });

    it("brings an offline read-only SAN disk online and leaves read-only alone by default (F3)", async () => {
      const h = host();
      h.reset({
        disks: [
          { number: 5, busType: "iSCSI", offline: true, readOnly: true, offlineReason: "Policy" },
        ],
      });
      expect(await h.disk.setDiskState({ diskNumber: 5, isOnline: true })).toEqual({
        isReadOnly: true,
      });
      expect(h.sim.state().disks.find((d) => d.number === 5)).toMatchObject({
        isOffline: false,
        isReadOnly: true,
      });
      expect(
        h
          .calls()
          .filter((c) => c.command === "Set-Disk")
          .map((c) => c.parameters),
      ).toEqual([{ Number: 5, IsOffline: false }]);
    });

    it("with clearReadOnly, brings the SAN-policy disk online, clears read-only, and repeats as a no-op", async () => {
      const h = host();
      h.reset({
        disks: [
          { number: 5, busType: "iSCSI", offline: true, readOnly: true, offlineReason: "Policy" },
        ],
      });
      const request = { diskNumber: 5, isOnline: true, clearReadOnly: true };
      expect(await h.disk.setDiskState(request)).toEqual({ isReadOnly: false });
      expect(h.sim.state().disks.find((d) => d.number === 5)).toMatchObject({
        isOffline: false,
        isReadOnly: false,
      });
      const sets = h
        .calls()
        .filter((c) => c.command === "Set-Disk")
        .map((c) => c.parameters);
      expect(sets).toEqual([
        { Number: 5, IsOffline: false },
        { Number: 5, IsReadOnly: false },
      ]);
      expect(h.commands()).toEqual(["Get-Disk", "Set-Disk", "Get-Disk", "Set-Disk", "Get-Disk"]);
      h.sim.clearCalls();
      await h.disk.setDiskState(request);
      expect(h.commands()).toEqual(["Get-Disk"]);
    });

    it("onlines a write-protected LUN without failing, and reports a refused clear as DiskReadOnlyError (F3)", async () => {
      const h = host();
      h.reset({ disks: [{ number: 7, busType: "iSCSI", offline: true, writeProtected: true }] });
      // The default leaves the storage side's read-only alone, so onlining succeeds.
      expect(await h.disk.setDiskState({ diskNumber: 7, isOnline: true })).toEqual({
        isReadOnly: true,
      });
      expect(await h.disk.getDiskState({ diskNumber: 7 })).toEqual({ isOnline: true });
      const request = { diskNumber: 7, isOnline: true, clearReadOnly: true };
      const error = await failure(h.disk.setDiskState(request));
      expect(isDiskReadOnlyError(error)).toBe(true);
      expect(error).toMatchObject({ code: "FAILED_PRECONDITION", diskNumber: 7 });
      expect(causeId(error)).toBe("StorageWMI 41002,Set-Disk");
      // Still online: a retry does not touch IsOffline again, only the clearing.
      h.sim.clearCalls();
      expect(isDiskReadOnlyError(await failure(h.disk.setDiskState(request)))).toBe(true);
      expect(
        h
          .calls()
          .filter((c) => c.command === "Set-Disk")
          .map((c) => c.parameters),
      ).toEqual([{ Number: 7, IsReadOnly: false }]);
      expect(h.sim.state().disks.find((d) => d.number === 7)).toMatchObject({
        isOffline: false,
        isReadOnly: true,
      });
    });

    it("brings a signature-collision disk online", async () => {
      const h = host();
      h.reset(scenarios.demo());
      await h.disk.setDiskState({ diskNumber: 6, isOnline: true });
      expect(await h.disk.getDiskState({ diskNumber: 6 })).toEqual({ isOnline: true });
    });

    it("takes a disk offline once and leaves read-only alone", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1, readOnly: true }] });
      await h.disk.setDiskState({ diskNumber: 1, isOnline: false });
      await h.disk.setDiskState({ diskNumber: 1, isOnline: false });
      expect(h.commands().filter((c) => c === "Set-Disk")).toHaveLength(1);
      expect(h.sim.state().disks.find((d) => d.number === 1)).toMatchObject({
        isOffline: true,
        isReadOnly: true,
      });
    });
  });

  describe("partitionDisk (upstream's raw VHD scenario)", () => {
    it("initialises a RAW disk as GPT and creates one basic partition after the MSR, idempotently", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1, busType: "File Backed Virtual", size: GiB }] });
      await expect(h.disk.partitionDisk({ diskNumber: 1 })).resolves.toEqual({});
      const after = h.sim.state();
      expect(after.disks.find((d) => d.number === 1)?.partitionStyle).toBe(2);
      const parts = after.partitions.filter((p) => p.diskNumber === 1);
      expect(parts.map((p) => [p.partitionNumber, p.gptType, p.offset])).toEqual([
        [1, msrType, 17408],
        [2, basicType, 16777216],
      ]);
      // One script: the disk read once, then only what it decided.
      expect(h.commands()).toEqual([
        "Get-Disk",
        "Initialize-Disk",
        "Get-Partition",
        "New-Partition",
      ]);

      h.sim.clearCalls();
      await h.disk.partitionDisk({ diskNumber: 1 });
      expect(h.commands()).toEqual(["Get-Disk", "Get-Partition"]);
      expect(h.sim.state().partitions.filter((p) => p.diskNumber === 1)).toEqual(parts);
    });

    it("adds a partition to a GPT disk that has only the MSR", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1, partitionStyle: "GPT" }] });
      await h.disk.partitionDisk({ diskNumber: 1 });
      expect(h.commands()).not.toContain("Initialize-Disk");
      expect(h.sim.state().partitions.filter((p) => p.diskNumber === 1)).toHaveLength(2);
    });

    it("leaves a partitioned MBR disk alone and partitions an empty one as MBR", async () => {
      const h = host();
      h.reset({
        disks: [
          { number: 1, partitionStyle: "MBR", partitions: [{ fileSystem: "NTFS" }] },
          { number: 2, partitionStyle: "MBR" },
        ],
      });
      const before = h.sim.state().partitions.filter((p) => p.diskNumber === 1);
      await h.disk.partitionDisk({ diskNumber: 1 });
      await h.disk.partitionDisk({ diskNumber: 2 });
      const after = h.sim.state();
      expect(after.partitions.filter((p) => p.diskNumber === 1)).toEqual(before);
      expect(after.disks.find((d) => d.number === 2)?.partitionStyle).toBe(1);
      expect(after.partitions.filter((p) => p.diskNumber === 2).map((p) => p.offset)).toEqual([
        1048576,
      ]);
      expect(h.commands().filter((c) => c === "New-Partition")).toHaveLength(1);
    });

    it("tolerates StorageWMI 41001 when the disk was initialised after it was read", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1, size: GiB }] });
      const gate = h.sim.block({ command: "Initialize-Disk" });
      const call = h.disk.partitionDisk({ diskNumber: 1 });
      await gate.met();
      // Someone else initialises the disk between the script's Get-Disk and its Initialize-Disk.
      h.sim.update((s) => {
        const d = s.disks.find((x) => x.number === 1)!;
        d.partitionStyle = 2;
      });
      gate.release();
      await expect(call).resolves.toEqual({});
      // Initialize-Disk found the disk initialised (41001), and the script went on.
      expect(h.calls().map((c) => [c.command, c.outcome])).toEqual([
        ["Get-Disk", "ok"],
        ["Initialize-Disk", "error"],
        ["Get-Partition", "ok"],
        ["New-Partition", "ok"],
      ]);
      const parts = h.sim.state().partitions.filter((p) => p.diskNumber === 1);
      expect(parts.map((p) => p.gptType)).toEqual([basicType]);
    });

    it("tolerates StorageWMI 42002 when a data partition is there on the second count", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1, partitionStyle: "GPT" }] });
      // The first Get-Partition passes; New-Partition fails with 42002; the second count waits.
      h.sim.fault({ command: "Get-Partition", action: "delay", delayMs: 1 });
      h.sim.fault({
        command: "New-Partition",
        action: "error",
        error: {
          message: "The requested access path is already in use.",
          errorId: "StorageWMI 42002",
        },
      });
      const gate = h.sim.block({ command: "Get-Partition" });
      const call = h.disk.partitionDisk({ diskNumber: 1 });
      await gate.met();
      // As on Windows, the partition exists though its access path could not be assigned.
      h.sim.update((s) => {
        const msr = s.partitions.find((p) => p.diskNumber === 1)!;
        s.partitions.push({
          ...structuredClone(msr),
          partitionNumber: 2,
          offset: 16777216,
          gptType: basicType,
        });
      });
      gate.release();
      await expect(call).resolves.toEqual({});
      expect(h.calls().map((c) => [c.command, c.outcome])).toEqual([
        ["Get-Disk", "ok"],
        ["Get-Partition", "ok"],
        ["New-Partition", "fault"],
        ["Get-Partition", "ok"],
      ]);
    });

    it("runs concurrent calls on one disk one at a time: one partition, not two", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1 }] });
      await Promise.all([
        h.disk.partitionDisk({ diskNumber: 1 }),
        h.disk.partitionDisk({ diskNumber: 1 }),
        h.disk.partitionDisk({ diskNumber: 1 }),
      ]);
      expect(h.commands().filter((c) => c === "Initialize-Disk")).toHaveLength(1);
      expect(h.commands().filter((c) => c === "New-Partition")).toHaveLength(1);
    });
  });

  describe("not found and bad input", () => {
    it.each([
      ["getDiskStats", (h: ReturnType<typeof host>) => h.disk.getDiskStats({ diskNumber: 42 })],
      ["getDiskState", (h: ReturnType<typeof host>) => h.disk.getDiskState({ diskNumber: 42 })],
      [
        "setDiskState",
        (h: ReturnType<typeof host>) => h.disk.setDiskState({ diskNumber: 42, isOnline: true }),
      ],
      ["partitionDisk", (h: ReturnType<typeof host>) => h.disk.partitionDisk({ diskNumber: 42 })],
    ])(
      "%s on a missing disk fails with NOT_FOUND from Get-Disk's query miss",
      async (_name, call) => {
        const h = host();
        h.reset({});
        const error = await failure(call(h));
        expect(error.code).toBe("NOT_FOUND");
        expect(error).toBeInstanceOf(DiskNotFoundError);
        expect(causeId(error)).toBe("CmdletizationQuery_NotFound_Number,Get-Disk");
        expect(h.commands().filter((c) => c !== "Get-Disk")).toEqual([]);
      },
    );

    it.each([[-1], [2 ** 32], [1.5], [Number.NaN]])(
      "rejects diskNumber %s before any cmdlet runs",
      async (diskNumber) => {
        const h = host();
        h.reset({});
        for (const call of [
          h.disk.getDiskStats({ diskNumber }),
          h.disk.getDiskState({ diskNumber }),
          h.disk.setDiskState({ diskNumber, isOnline: true }),
          h.disk.partitionDisk({ diskNumber }),
        ]) {
          expect((await failure(call)).code).toBe("INVALID_ARGUMENT");
        }
        expect(h.calls()).toEqual([]);
      },
    );
  });

  describe("injected faults", () => {
    it("keeps a New-Partition failure as the cause, with its StorageWMI id", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1, partitionStyle: "GPT" }] });
      h.sim.fault({
        command: "New-Partition",
        action: "error",
        error: {
          message: "Not enough available capacity",
          errorId: "StorageWMI 40000",
          category: "NotSpecified",
          exceptionType: "Microsoft.Management.Infrastructure.CimException",
          nativeErrorCode: "Failed",
        },
      });
      const error = await failure(h.disk.partitionDisk({ diskNumber: 1 }));
      expect(error.code).toBe("COMMAND_FAILED");
      expect(causeId(error)).toBe("StorageWMI 40000,New-Partition");
      // As on Windows: StatusCode is the MI result (1 = Failed), the StorageWMI code is in MessageId.
      expect(error.cause).toMatchObject({
        record: { statusCode: 1, messageId: "StorageWMI 40000" },
      });
      // The fault is spent: a retry succeeds.
      await h.disk.partitionDisk({ diskNumber: 1 });
      expect(h.sim.state().partitions.filter((p) => p.diskNumber === 1)).toHaveLength(2);
    });

    it("reports StorageWMI 42002 when New-Partition created nothing", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1, partitionStyle: "GPT" }] });
      h.sim.fault({
        command: "New-Partition",
        action: "error",
        error: {
          message: "The requested access path is already in use.",
          errorId: "StorageWMI 42002",
        },
      });
      const error = await failure(h.disk.partitionDisk({ diskNumber: 1 }));
      expect(causeId(error)).toBe("StorageWMI 42002,New-Partition");
    });

    it("reports a Set-Disk failure after the disk came online", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1, offline: true, readOnly: true }] });
      h.sim.fault({
        command: "Set-Disk",
        match: { IsReadOnly: false },
        action: "error",
        error: { message: "Access denied", errorId: "StorageWMI 40001" },
      });
      const request = { diskNumber: 1, isOnline: true, clearReadOnly: true };
      const error = await failure(h.disk.setDiskState(request));
      expect(error.code).toBe("FAILED_PRECONDITION");
      expect(isDiskReadOnlyError(error)).toBe(true);
      expect(causeId(error)).toBe("StorageWMI 40001,Set-Disk");
      expect(h.sim.state().disks.find((d) => d.number === 1)).toMatchObject({
        isOffline: false,
        isReadOnly: true,
      });
      await h.disk.setDiskState(request);
      expect(h.sim.state().disks.find((d) => d.number === 1)?.isReadOnly).toBe(false);
    });

    it("survives a PowerShell process killed mid-call", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1 }] });
      h.sim.fault({ command: "Get-Disk", action: "kill" });
      const error = await failure(h.disk.getDiskState({ diskNumber: 1 }));
      expect(error.code).toBe("PROCESS_EXITED");
      expect(await h.disk.getDiskState({ diskNumber: 1 })).toEqual({ isOnline: true });
    });

    it("ignores warnings, progress, host and information output", async () => {
      const h = host();
      h.reset({ disks: [{ number: 1, page83: { ascii: "Google  persistent-disk-1" } }] });
      h.sim.fault({
        command: "*",
        times: -1,
        action: "noise",
        noise: ["warning", "progress", "host", "verbose", "information"],
      });
      expect((await h.disk.listDiskIds({})).diskIds.get(1)?.page83).toBe(
        "Google  persistent-disk-1",
      );
      expect(await h.disk.getDiskStats({ diskNumber: 1 })).toEqual({ totalBytes: 10 * GiB });
    });
  });
});
