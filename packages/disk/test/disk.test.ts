import { CsiProxyError, isCsiProxyError } from "@csi-proxy/exec";
import { describe, expect, it, vi } from "vitest";
import { Disk } from "../src/disk.js";
import { parsePage83Id } from "../src/index.js";
import { DiskNotFoundError, DiskReadOnlyError, isDiskReadOnlyError } from "../src/errors.js";
import type { SetDiskStateRequest } from "../src/types.js";
import { FakeDiskHost, powerShellError, type FakeDisk } from "./fake-host.js";

function fakeDisk(overrides: Partial<FakeDisk> = {}): FakeDisk {
  return {
    number: 1,
    partitionStyle: 2,
    isOffline: false,
    isReadOnly: false,
    size: 10 * 2 ** 30,
    partitions: ["reserved"],
    ...overrides,
  };
}

function setup(disks: FakeDisk[] = [fakeDisk()]): { host: FakeDiskHost; disk: Disk } {
  const host = new FakeDiskHost(disks);
  return { host, disk: new Disk({ host }) };
}

async function failure(call: Promise<unknown>): Promise<CsiProxyError> {
  try {
    await call;
  } catch (error) {
    if (isCsiProxyError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

describe("validation happens before any host call", () => {
  const badNumbers: unknown[] = [-1, 1.5, 2 ** 32, Number.NaN, Infinity, "1", 1n, null, undefined];

  for (const method of ["partitionDisk", "getDiskStats", "getDiskState"] as const) {
    it.each(badNumbers.map((n) => [n]))(`${method} rejects diskNumber %s`, async (value) => {
      const { host, disk } = setup();
      const error = await failure(disk[method]({ diskNumber: value as number }));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(host.calls).toEqual([]);
    });
  }

  it.each(badNumbers.map((n) => [n]))("setDiskState rejects diskNumber %s", async (value) => {
    const { host, disk } = setup();
    const error = await failure(disk.setDiskState({ diskNumber: value as number, isOnline: true }));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(host.calls).toEqual([]);
  });

  it("accepts the whole uint32 range", async () => {
    const { host, disk } = setup([fakeDisk({ number: 0 }), fakeDisk({ number: 2 ** 32 - 1 })]);
    await disk.getDiskState({ diskNumber: 0 });
    await disk.getDiskState({ diskNumber: 2 ** 32 - 1 });
    expect(host.calls.map((c) => c.args)).toEqual([[0], [2 ** 32 - 1]]);
  });

  it.each([[undefined], ["yes"], [1], [null]] as unknown[][])(
    "setDiskState rejects isOnline %j",
    async (value) => {
      const { host, disk } = setup();
      const error = await failure(disk.setDiskState({ diskNumber: 1, isOnline: value as boolean }));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(host.calls).toEqual([]);
    },
  );

  it.each([[""], [undefined], [5]])("getDiskNumberByPage83 rejects page83 %j", async (value) => {
    const { host, disk } = setup();
    const error = await failure(disk.getDiskNumberByPage83({ page83: value as string }));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(host.calls).toEqual([]);
  });

  it.each([[""], [undefined], [5]])(
    "parsePage83Id, exported for gRPC handlers, refuses %j as the method does",
    async (value) => {
      const { disk } = setup();
      const method = await failure(disk.getDiskNumberByPage83({ page83: value as string }));
      let thrown: unknown;
      try {
        parsePage83Id(value);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: "INVALID_ARGUMENT", message: method.message });
    },
  );

  it("parsePage83Id returns an identifier unchanged, padding included", () => {
    expect(parsePage83Id("Google  persistent-disk-1 ")).toBe("Google  persistent-disk-1 ");
  });

  it.each([[null], [[]], ["x"]])("rejects request %j", async (request) => {
    const { host, disk } = setup();
    for (const call of [
      () => disk.listDiskLocations(request as never),
      () => disk.listDiskIds(request as never),
      () => disk.rescan(request as never),
      () => disk.getDiskStats(request as never),
    ]) {
      expect((await failure(call())).code).toBe("INVALID_ARGUMENT");
    }
    expect(host.calls).toEqual([]);
  });
});

describe("partitionDisk", () => {
  it("initialises a RAW disk as GPT, then creates one partition, in one host call", async () => {
    const { host, disk } = setup([fakeDisk({ partitionStyle: 0, partitions: [] })]);
    await expect(disk.partitionDisk({ diskNumber: 1 })).resolves.toEqual({});
    expect(host.calls).toEqual([{ method: "partitionDisk", args: [1] }]);
    expect(host.steps).toEqual(["Get-Disk", "Initialize-Disk", "Get-Partition", "New-Partition"]);
    expect(host.disks.get(1)?.partitions).toEqual(["reserved", "basic"]);
  });

  it("is idempotent: a second call only looks, in one host call", async () => {
    const { host, disk } = setup([fakeDisk({ partitionStyle: 0, partitions: [] })]);
    await disk.partitionDisk({ diskNumber: 1 });
    host.calls.length = 0;
    host.steps.length = 0;
    await disk.partitionDisk({ diskNumber: 1 });
    expect(host.methods()).toEqual(["partitionDisk"]);
    expect(host.steps).toEqual(["Get-Disk", "Get-Partition"]);
    expect(host.disks.get(1)?.partitions).toEqual(["reserved", "basic"]);
  });

  it("creates a partition on an initialised disk that has only the reserved one", async () => {
    const { host, disk } = setup([fakeDisk({ partitions: ["reserved"] })]);
    await disk.partitionDisk({ diskNumber: 1 });
    expect(host.steps).toEqual(["Get-Disk", "Get-Partition", "New-Partition"]);
  });

  it("leaves an MBR disk with a partition alone", async () => {
    const { host, disk } = setup([fakeDisk({ partitionStyle: 1, partitions: ["IFS"] })]);
    await disk.partitionDisk({ diskNumber: 1 });
    expect(host.steps).toEqual(["Get-Disk", "Get-Partition"]);
  });

  it("partitions an empty MBR disk without re-initialising it", async () => {
    const { host, disk } = setup([fakeDisk({ partitionStyle: 1, partitions: [] })]);
    await disk.partitionDisk({ diskNumber: 1 });
    expect(host.steps).toEqual(["Get-Disk", "Get-Partition", "New-Partition"]);
    expect(host.disks.get(1)?.partitionStyle).toBe(1);
  });

  it("tolerates StorageWMI 42002 from New-Partition when the partition exists", async () => {
    const { host, disk } = setup();
    host.failStep("New-Partition", powerShellError("StorageWMI 42002,New-Partition"));
    // The real cmdlet created the partition before failing to assign the access path.
    host.stepHook = async (step) => {
      if (step === "New-Partition") host.disks.get(1)?.partitions.push("basic");
      return Promise.resolve();
    };
    await disk.partitionDisk({ diskNumber: 1 });
    expect(host.steps).toEqual(["Get-Disk", "Get-Partition", "New-Partition", "Get-Partition"]);
    expect(host.disks.get(1)?.partitions).toEqual(["reserved", "basic"]);
  });

  it("reports 42002 when no partition was created after all", async () => {
    const { host, disk } = setup();
    const cause = powerShellError("StorageWMI 42002,New-Partition");
    host.failStep("New-Partition", cause);
    const error = await failure(disk.partitionDisk({ diskNumber: 1 }));
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.cause).toBe(cause);
  });

  it("tolerates StorageWMI 41001 when someone else initialised the disk first", async () => {
    const { host, disk } = setup([fakeDisk({ partitionStyle: 0, partitions: [] })]);
    host.stepHook = async (step) => {
      const d = host.disks.get(1)!;
      if (step === "Initialize-Disk" && d.partitionStyle === 0) {
        d.partitionStyle = 2;
        d.partitions.push("reserved");
      }
      return Promise.resolve();
    };
    await disk.partitionDisk({ diskNumber: 1 });
    expect(host.steps).toEqual(["Get-Disk", "Initialize-Disk", "Get-Partition", "New-Partition"]);
    expect(host.disks.get(1)?.partitions).toEqual(["reserved", "basic"]);
  });

  it("keeps other New-Partition failures as the cause, code unchanged", async () => {
    const { host, disk } = setup();
    const cause = powerShellError("StorageWMI 41003,New-Partition", "The disk is offline.");
    host.failStep("New-Partition", cause);
    const error = await failure(disk.partitionDisk({ diskNumber: 1 }));
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.cause).toBe(cause);
    expect(error.message).toContain("partitionDisk(disk 1)");
    expect(host.steps).toEqual(["Get-Disk", "Get-Partition", "New-Partition"]);
  });

  it("keeps other Initialize-Disk failures as the cause, and creates nothing", async () => {
    const { host, disk } = setup([fakeDisk({ partitionStyle: 0, partitions: [] })]);
    const cause = powerShellError("StorageWMI 40001,Initialize-Disk", "Access denied");
    host.failStep("Initialize-Disk", cause);
    const error = await failure(disk.partitionDisk({ diskNumber: 1 }));
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.cause).toBe(cause);
    expect(host.steps).toEqual(["Get-Disk", "Initialize-Disk"]);
  });

  it("fails with NOT_FOUND for a missing disk and does nothing else", async () => {
    const { host, disk } = setup();
    const error = await failure(disk.partitionDisk({ diskNumber: 7 }));
    expect(error.code).toBe("NOT_FOUND");
    expect(error).toBeInstanceOf(DiskNotFoundError);
    expect(error).toMatchObject({ diskNumber: 7 });
    expect(host.steps).toEqual(["Get-Disk"]);
  });

  it("serialises calls on one disk, and runs different disks in parallel", async () => {
    const { host, disk } = setup([fakeDisk({ number: 1 }), fakeDisk({ number: 2 })]);
    let active = 0;
    let maxActiveOnOne = 0;
    const events: string[] = [];
    host.hook = async () => {
      active++;
      events.push(`start ${String(host.calls.at(-1)?.args[0])}`);
      maxActiveOnOne = Math.max(maxActiveOnOne, active);
      await new Promise((resolve) => setTimeout(resolve, 20));
      active--;
    };
    await Promise.all([
      disk.partitionDisk({ diskNumber: 1 }),
      disk.partitionDisk({ diskNumber: 1 }),
      // A second instance shares the process-wide lock.
      new Disk({ host }).setDiskState({ diskNumber: 1, isOnline: false }),
    ]);
    expect(maxActiveOnOne).toBe(1);
    expect(host.disks.get(1)?.partitions).toEqual(["reserved", "basic"]);

    events.length = 0;
    maxActiveOnOne = 0;
    await Promise.all([
      disk.partitionDisk({ diskNumber: 2 }),
      new Disk({ host }).setDiskState({ diskNumber: 1, isOnline: true }),
    ]);
    expect(maxActiveOnOne).toBe(2);
  });

  it("lets a read issued during a change wait for it, so it never sees the disk halfway", async () => {
    const { host, disk } = setup([fakeDisk({ isOffline: true, isReadOnly: true })]);
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    host.stepHook = async (step) => {
      // Holds the change between its two Set-Disk steps: online, still read-only.
      if (step === "Set-Disk -IsReadOnly") await held;
    };
    const change = disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true });
    const state = disk.getDiskState({ diskNumber: 1 });
    const stats = disk.getDiskStats({ diskNumber: 1 });
    try {
      await vi.waitFor(() => expect(host.steps.at(-1)).toBe("Set-Disk -IsReadOnly"));
      expect(host.methods()).toEqual(["setOnline"]);
    } finally {
      release();
    }
    await expect(Promise.all([change, state, stats])).resolves.toMatchObject([
      { isReadOnly: false },
      { isOnline: true },
      {},
    ]);
    // Both reads ran once the change (and its check that read-only is gone) had finished.
    expect(host.methods()).toEqual(["setOnline", "getDisk", "getDisk"]);
    expect(host.steps).toEqual([
      "Get-Disk",
      "Set-Disk -IsOffline",
      "Get-Disk",
      "Set-Disk -IsReadOnly",
      "Get-Disk",
      "Get-Disk",
      "Get-Disk",
    ]);
  });
});

describe("setDiskState", () => {
  it("brings an offline, read-only disk online and leaves read-only as it was (F3)", async () => {
    const { host, disk } = setup([fakeDisk({ isOffline: true, isReadOnly: true })]);
    await expect(disk.setDiskState({ diskNumber: 1, isOnline: true })).resolves.toEqual({
      isReadOnly: true,
    });
    expect(host.calls).toEqual([{ method: "setOnline", args: [1, false] }]);
    expect(host.steps).toEqual(["Get-Disk", "Set-Disk -IsOffline", "Get-Disk"]);
    expect(host.disks.get(1)).toMatchObject({ isOffline: false, isReadOnly: true });
  });

  it("with clearReadOnly, brings the disk online, clears read-only and checks it is gone", async () => {
    const { host, disk } = setup([fakeDisk({ isOffline: true, isReadOnly: true })]);
    await expect(
      disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true }),
    ).resolves.toEqual({ isReadOnly: false });
    expect(host.calls).toEqual([{ method: "setOnline", args: [1, true] }]);
    expect(host.steps).toEqual([
      "Get-Disk",
      "Set-Disk -IsOffline",
      "Get-Disk",
      "Set-Disk -IsReadOnly",
      "Get-Disk",
    ]);
    expect(host.disks.get(1)).toMatchObject({ isOffline: false, isReadOnly: false });
  });

  it("with clearReadOnly, clears read-only that Windows applies when the disk comes online", async () => {
    const { host, disk } = setup([fakeDisk({ isOffline: true, readOnlyWhenOnlined: true })]);
    await disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true });
    expect(host.steps).toEqual([
      "Get-Disk",
      "Set-Disk -IsOffline",
      "Get-Disk",
      "Set-Disk -IsReadOnly",
      "Get-Disk",
    ]);
    expect(host.disks.get(1)).toMatchObject({ isOffline: false, isReadOnly: false });
  });

  it("with clearReadOnly, clears read-only on a disk that is already online", async () => {
    const { host, disk } = setup([fakeDisk({ isReadOnly: true })]);
    await disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true });
    expect(host.methods()).toEqual(["setOnline"]);
    expect(host.steps).toEqual(["Get-Disk", "Set-Disk -IsReadOnly", "Get-Disk"]);
  });

  it("a refused clear leaves the disk online: DiskReadOnlyError, and a retry only retries the clear", async () => {
    const { host, disk } = setup([fakeDisk({ isOffline: true, isReadOnly: true })]);
    const refusal = powerShellError("StorageWMI 41002,Set-Disk", "The disk is read only.");
    host.failStep("Set-Disk -IsReadOnly", refusal);
    const error = await failure(
      disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true }),
    );
    expect(isDiskReadOnlyError(error)).toBe(true);
    expect(error).toBeInstanceOf(DiskReadOnlyError);
    expect(error).toMatchObject({ code: "FAILED_PRECONDITION", diskNumber: 1 });
    expect(error.cause).toBe(refusal);
    expect(host.disks.get(1)).toMatchObject({ isOffline: false, isReadOnly: true });
    host.calls.length = 0;
    host.steps.length = 0;
    await expect(
      disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true }),
    ).resolves.toEqual({ isReadOnly: false });
    expect(host.methods()).toEqual(["setOnline"]);
    expect(host.steps).toEqual(["Get-Disk", "Set-Disk -IsReadOnly", "Get-Disk"]);
  });

  it("a clear that reports success but leaves read-only is a DiskReadOnlyError too", async () => {
    const { disk } = setup([fakeDisk({ isReadOnly: true, keepsReadOnly: true })]);
    const error = await failure(
      disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true }),
    );
    expect(isDiskReadOnlyError(error)).toBe(true);
    expect(error.cause).toBeUndefined();
  });

  it("keeps the code of a clear that did not get an answer (timeout)", async () => {
    const { host, disk } = setup([fakeDisk({ isReadOnly: true })]);
    const timeout = new CsiProxyError("timed out", { code: "TIMEOUT" });
    host.failStep("Set-Disk -IsReadOnly", timeout);
    const error = await failure(
      disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true }),
    );
    expect(error.code).toBe("TIMEOUT");
    expect(isDiskReadOnlyError(error)).toBe(false);
  });

  it("keeps NOT_FOUND when the disk goes away before the clear", async () => {
    const { host, disk } = setup([fakeDisk({ isReadOnly: true })]);
    host.failStep("Set-Disk -IsReadOnly", new DiskNotFoundError(1));
    const error = await failure(
      disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true }),
    );
    expect(error.code).toBe("NOT_FOUND");
    expect(isDiskReadOnlyError(error)).toBe(false);
  });

  it.each([
    [{ isOnline: false, clearReadOnly: true }],
    [{ isOnline: true, clearReadOnly: "yes" }],
    [{ isOnline: true, clearReadOnly: null }],
  ])("rejects %j before any host call", async (fields) => {
    const { host, disk } = setup([fakeDisk({ isReadOnly: true })]);
    const error = await failure(
      disk.setDiskState({ diskNumber: 1, ...fields } as unknown as SetDiskStateRequest),
    );
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(host.calls).toEqual([]);
  });

  it("does nothing for a disk that is already online and writable: one read", async () => {
    const { host, disk } = setup();
    await disk.setDiskState({ diskNumber: 1, isOnline: true });
    await disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true });
    expect(host.methods()).toEqual(["setOnline", "setOnline"]);
    expect(host.steps).toEqual(["Get-Disk", "Get-Disk"]);
  });

  it("takes a disk offline once, leaving read-only alone", async () => {
    const { host, disk } = setup([fakeDisk({ isReadOnly: true })]);
    await expect(disk.setDiskState({ diskNumber: 1, isOnline: false })).resolves.toEqual({
      isReadOnly: true,
    });
    await disk.setDiskState({ diskNumber: 1, isOnline: false });
    expect(host.calls).toEqual([
      { method: "setOffline", args: [1] },
      { method: "setOffline", args: [1] },
    ]);
    expect(host.steps).toEqual(["Get-Disk", "Set-Disk -IsOffline", "Get-Disk"]);
    expect(host.disks.get(1)).toMatchObject({ isOffline: true, isReadOnly: true });
  });

  it("maps a missing disk to NOT_FOUND", async () => {
    const { disk } = setup();
    expect((await failure(disk.setDiskState({ diskNumber: 9, isOnline: true }))).code).toBe(
      "NOT_FOUND",
    );
    expect((await failure(disk.setDiskState({ diskNumber: 9, isOnline: false }))).code).toBe(
      "NOT_FOUND",
    );
  });

  it("keeps the host failure as cause: a failed onlining is no DiskReadOnlyError", async () => {
    const { host, disk } = setup([fakeDisk({ isOffline: true, isReadOnly: true })]);
    const cause = powerShellError("StorageWMI 40001,Set-Disk", "Access denied");
    host.failStep("Set-Disk -IsOffline", cause);
    const error = await failure(
      disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true }),
    );
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.cause).toBe(cause);
    expect(isDiskReadOnlyError(error)).toBe(false);
    expect(host.steps).toEqual(["Get-Disk", "Set-Disk -IsOffline"]);
  });
});

describe("getDiskState and getDiskStats", () => {
  it("reports isOnline from IsOffline", async () => {
    const { disk } = setup([fakeDisk({ number: 1 }), fakeDisk({ number: 2, isOffline: true })]);
    expect(await disk.getDiskState({ diskNumber: 1 })).toEqual({ isOnline: true });
    expect(await disk.getDiskState({ diskNumber: 2 })).toEqual({ isOnline: false });
  });

  it("reports totalBytes exactly: number when safe, bigint beyond 2^53", async () => {
    const { disk } = setup([
      fakeDisk({ number: 1, size: 2n ** 60n + 1n }),
      fakeDisk({ number: 2, size: 1073741824 }),
    ]);
    expect(await disk.getDiskStats({ diskNumber: 1 })).toEqual({ totalBytes: 2n ** 60n + 1n });
    expect(await disk.getDiskStats({ diskNumber: 2 })).toEqual({ totalBytes: 1073741824 });
  });

  it("maps missing disks to NOT_FOUND", async () => {
    const { disk } = setup();
    expect((await failure(disk.getDiskStats({ diskNumber: 4 }))).code).toBe("NOT_FOUND");
    expect((await failure(disk.getDiskState({ diskNumber: 4 }))).code).toBe("NOT_FOUND");
  });

  it("keeps timeouts as TIMEOUT with the cause", async () => {
    const { host, disk } = setup();
    const cause = powerShellError("x");
    Object.defineProperty(cause, "code", { value: "TIMEOUT" });
    host.fail("getDisk", cause);
    const error = await failure(disk.getDiskStats({ diskNumber: 1 }));
    expect(error.code).toBe("TIMEOUT");
    expect(error.cause).toBe(cause);
  });
});

describe("listDiskLocations", () => {
  it("parses every disk it can and skips the rest", async () => {
    const { host, disk } = setup();
    host.locations = [
      { number: 0, location: "Integrated : Adapter 0 : Port 0 : Target 0 : LUN 0" },
      { number: 1, location: "PCI Slot 3 : Adapter 0 : Port 0 : Target 1 : LUN 3" },
      { number: 2, location: null },
      { number: 3, location: "C:\\images\\disk.vhdx" },
      { number: 4, location: "Integrated : Bus 0 : Adapter 0" },
      { number: null, location: "PCI Slot 3 : Adapter 9 : Port 0 : Target 9 : LUN 9" },
      {
        number: 5,
        location:
          "Integrated : Bus 0 : Device 23 : Function 0 : Adapter 1 : Port 0 : Target 0 : LUN 0",
      },
    ];
    const { diskLocations } = await disk.listDiskLocations();
    expect([...diskLocations]).toEqual([
      [0, { adapter: "0", bus: "", target: "0", lunId: "0" }],
      [1, { adapter: "0", bus: "", target: "1", lunId: "3" }],
      [5, { adapter: "1", bus: "0", target: "0", lunId: "0" }],
    ]);
  });

  it("returns an empty map when no disk has a location", async () => {
    const { disk } = setup();
    expect((await disk.listDiskLocations({})).diskLocations.size).toBe(0);
  });
});

describe("listDiskIds", () => {
  it("reports page83 as is and serial numbers trimmed", async () => {
    const { host, disk } = setup();
    host.ids = [
      {
        number: 0,
        path: "p0",
        serialNumber: "                    ",
        page83: "Google  persistent-disk-0",
        error: null,
      },
      {
        number: 1,
        path: "p1",
        serialNumber: null,
        page83: "4d53465420202020328d59b360875845",
        error: null,
      },
      { number: 2, path: "p2", serialNumber: " S123 ", page83: "", error: null },
    ];
    const { diskIds, errors } = await disk.listDiskIds();
    expect([...diskIds]).toEqual([
      [0, { page83: "Google  persistent-disk-0", serialNumber: "", isSystemDisk: false }],
      [1, { page83: "4d53465420202020328d59b360875845", serialNumber: "", isSystemDisk: false }],
      [2, { page83: "", serialNumber: "S123", isSystemDisk: false }],
    ]);
    expect(errors).toEqual([]);
  });

  it("reports one unreadable disk and still lists the others", async () => {
    const { host, disk } = setup();
    host.ids = [
      { number: 0, path: "p0", serialNumber: "A", page83: "id0", error: null },
      {
        number: 3,
        path: "p3",
        serialNumber: "nvme ",
        page83: null,
        error: { message: "Incorrect function.", win32Error: 1 },
      },
      { number: 4, path: "p4", serialNumber: "B", page83: "id4", error: null },
    ];
    const { diskIds, errors } = await disk.listDiskIds();
    expect([...diskIds.keys()]).toEqual([0, 4]);
    expect(errors).toEqual([
      {
        diskNumber: 3,
        path: "p3",
        serialNumber: "nvme",
        message: "Incorrect function.",
        win32Error: 1,
      },
    ]);
  });

  it("reports an identifier without a disk number as an error, not under a made-up key", async () => {
    const { host, disk } = setup();
    host.ids = [{ number: null, path: "p", serialNumber: null, page83: "x", error: null }];
    const { diskIds, errors } = await disk.listDiskIds();
    expect(diskIds.size).toBe(0);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.diskNumber).toBeNull();
  });

  it("makes exactly one host call", async () => {
    const { host, disk } = setup();
    host.ids = [0, 1, 2, 3].map((n) => ({
      number: n,
      path: `p${n}`,
      serialNumber: null,
      page83: `id${n}`,
      error: null,
    }));
    await disk.listDiskIds();
    expect(host.methods()).toEqual(["listDiskIds"]);
  });
});

describe("getDiskNumberByPage83", () => {
  function withIds(): { host: FakeDiskHost; disk: Disk } {
    const s = setup();
    s.host.ids = [
      { number: 0, path: "p0", serialNumber: null, page83: "", error: null },
      {
        number: 2,
        path: "p2",
        serialNumber: null,
        page83: "Google  persistent-disk-0",
        error: null,
      },
      {
        number: 5,
        path: "p5",
        serialNumber: null,
        page83: "Google  persistent-disk-1",
        error: null,
      },
    ];
    return s;
  }

  it("finds the disk by exact identifier", async () => {
    const { disk } = withIds();
    expect(await disk.getDiskNumberByPage83({ page83: "Google  persistent-disk-1" })).toEqual({
      diskNumber: 5,
    });
  });

  it("does not match after trimming or case changes", async () => {
    const { disk } = withIds();
    for (const page83 of [
      "Google persistent-disk-1",
      "google  persistent-disk-1",
      "Google  persistent-disk-1 ",
    ]) {
      expect((await failure(disk.getDiskNumberByPage83({ page83 }))).code).toBe("NOT_FOUND");
    }
  });

  it("fails with COMMAND_FAILED, not NOT_FOUND, when an unreadable disk might be the one", async () => {
    const { host, disk } = withIds();
    host.ids = [
      ...host.ids,
      {
        number: 7,
        path: "p7",
        serialNumber: null,
        page83: null,
        error: { message: "Incorrect function.", win32Error: 1 },
      },
    ];
    const error = await failure(disk.getDiskNumberByPage83({ page83: "missing" }));
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.message).toContain("Incorrect function.");
    // A readable match still wins.
    expect(await disk.getDiskNumberByPage83({ page83: "Google  persistent-disk-0" })).toEqual({
      diskNumber: 2,
    });
  });
});

describe("rescan", () => {
  it("calls the host once and returns an empty response", async () => {
    const { host, disk } = setup();
    expect(await disk.rescan()).toEqual({});
    expect(host.methods()).toEqual(["rescan"]);
  });

  it("keeps failures as cause", async () => {
    const { host, disk } = setup();
    const cause = powerShellError("HRESULT 0x80041001,Update-HostStorageCache");
    host.fail("rescan", cause);
    const error = await failure(disk.rescan());
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.cause).toBe(cause);
  });
});

describe("construction", () => {
  it("rejects both a host and a shell", () => {
    const host = new FakeDiskHost();
    expect(() => new Disk({ host, shell: {} as never })).toThrow(/host or a shell/);
  });

  it("close() ends the PowerShell it created itself", async () => {
    const disk = new Disk();
    await disk.close();
    // The owned shell is closed, so a call fails without starting anything.
    expect((await failure(disk.getDiskState({ diskNumber: 1 }))).code).toBe("ABORTED");
  });

  it("close() leaves a shell it was given open", async () => {
    let closed = 0;
    const shell = {
      mode: "session" as const,
      run: () => Promise.resolve(undefined as never),
      warmUp: () => Promise.resolve(),
      close: () => {
        closed++;
        return Promise.resolve();
      },
    };
    await new Disk({ shell }).close();
    expect(closed).toBe(0);
  });
});
