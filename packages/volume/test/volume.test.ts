import { isCsiProxyError } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { isSupportedSizeUnavailableError, Volume, type VolumeInfo } from "../src/index.js";
import type { VolumeHost } from "../src/host-types.js";
import { fakeHost, mib, psError, volumeA, volumeB } from "./fake-host.js";

/** The calling method's context, handed to every host call. */
const context = expect.objectContaining({ signal: expect.any(AbortSignal) }) as unknown;

async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return isCsiProxyError(error) ? error.code : `not a CsiProxyError: ${String(error)}`;
  }
  return "no error";
}

function info(partial: Partial<VolumeInfo> = {}): VolumeInfo {
  return {
    volumeId: volumeA,
    fileSystem: "NTFS",
    fileSystemType: "NTFS",
    label: "",
    size: 1073741824n,
    sizeRemaining: 1000000000n,
    ...partial,
  };
}

const winPath = "C:\\var\\lib\\kubelet\\mount-1";

describe("validation happens before the host is called", () => {
  const host = fakeHost();
  const volume = new Volume({ host, pathStyle: "windows" });

  it.each(["", "-1"])("upstream's negative ids %j are INVALID_ARGUMENT everywhere", async (id) => {
    expect(await codeOf(volume.isVolumeFormatted({ volumeId: id }))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(volume.formatVolume({ volumeId: id }))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(volume.resizeVolume({ volumeId: id, sizeBytes: 0 }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.getVolumeStats({ volumeId: id }))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(volume.getDiskNumberFromVolumeId({ volumeId: id }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.writeVolumeCache({ volumeId: id }))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(volume.listVolumeMountPoints({ volumeId: id }))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(volume.mountVolume({ volumeId: id, targetPath: "" }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.unmountVolume({ volumeId: id, targetPath: "" }))).toBe(
      "INVALID_ARGUMENT",
    );
  });

  it("rejects a valid id with an empty or relative path", async () => {
    expect(await codeOf(volume.mountVolume({ volumeId: volumeA, targetPath: "" }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.mountVolume({ volumeId: volumeA, targetPath: "mnt\\x" }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.getVolumeIdFromTargetPath({ targetPath: "/tmp/x" }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.getClosestVolumeIdFromTargetPath({ targetPath: "x" }))).toBe(
      "INVALID_ARGUMENT",
    );
  });

  it("rejects negative sizes, bad disk numbers, file systems and labels", async () => {
    expect(await codeOf(volume.resizeVolume({ volumeId: volumeA, sizeBytes: -1 }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.listVolumesOnDisk({ diskNumber: -1 }))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(volume.listVolumesOnDisk({ diskNumber: 1, partitionNumber: 0.5 }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(
      await codeOf(volume.formatVolume({ volumeId: volumeA, fileSystem: "FAT32" as "NTFS" })),
    ).toBe("INVALID_ARGUMENT");
    expect(await codeOf(volume.formatVolume({ volumeId: volumeA, label: "x".repeat(40) }))).toBe(
      "INVALID_ARGUMENT",
    );
  });

  it("rejects a missing request object", async () => {
    const loose = volume as unknown as Record<string, (request: unknown) => Promise<unknown>>;
    for (const name of [
      "listVolumesOnDisk",
      "mountVolume",
      "resizeVolume",
      "getVolumeIdFromTargetPath",
    ]) {
      expect(await codeOf(loose[name]!.call(volume, undefined))).toBe("INVALID_ARGUMENT");
      expect(await codeOf(loose[name]!.call(volume, null))).toBe("INVALID_ARGUMENT");
    }
  });

  it("reads no field through Object.prototype", async () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.volumeId = volumeA;
    try {
      expect(await codeOf(volume.formatVolume({} as never))).toBe("INVALID_ARGUMENT");
    } finally {
      delete proto.volumeId;
    }
  });

  it("never reached the host", () => {
    for (const method of Object.values(host)) expect(method).not.toHaveBeenCalled();
  });

  it("follows the injected path style", async () => {
    const posix = new Volume({ host: fakeHost(), pathStyle: "posix" });
    expect(posix.pathStyle).toBe("posix");
    expect(await codeOf(posix.mountVolume({ volumeId: volumeA, targetPath: winPath }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(new Volume({ host: fakeHost() }).pathStyle).toBe(
      process.platform === "win32" ? "windows" : "posix",
    );
  });
});

describe("listVolumesOnDisk", () => {
  it("passes partition 0 for 'all' and returns an empty list as is", async () => {
    const host = fakeHost({ listVolumeIds: () => Promise.resolve([]) });
    const volume = new Volume({ host });
    expect(await volume.listVolumesOnDisk({ diskNumber: 3 })).toEqual({ volumeIds: [] });
    expect(host.listVolumeIds).toHaveBeenCalledWith(3, 0, context);
  });

  it("passes a partition number through", async () => {
    const host = fakeHost({ listVolumeIds: () => Promise.resolve([volumeA]) });
    expect(
      await new Volume({ host }).listVolumesOnDisk({ diskNumber: 1, partitionNumber: 2 }),
    ).toEqual({ volumeIds: [volumeA] });
    expect(host.listVolumeIds).toHaveBeenCalledWith(1, 2, context);
  });

  it("maps a missing disk to NOT_FOUND", async () => {
    const host = fakeHost({
      listVolumeIds: () =>
        Promise.reject(psError("CmdletizationQuery_NotFound_Number,Get-Disk", "ObjectNotFound")),
    });
    expect(await codeOf(new Volume({ host }).listVolumesOnDisk({ diskNumber: 9 }))).toBe(
      "NOT_FOUND",
    );
  });
});

describe("mountVolume and unmountVolume", () => {
  const mountWith = (outcome: Awaited<ReturnType<VolumeHostMount>>) =>
    new Volume({
      host: fakeHost({ mountVolume: () => Promise.resolve(outcome) }),
      pathStyle: "windows",
    });
  type VolumeHostMount = ReturnType<typeof fakeHost>["mountVolume"];

  it("reports a fresh mount and an idempotent repeat", async () => {
    expect(
      await mountWith({ status: "mounted" }).mountVolume({
        volumeId: volumeA,
        targetPath: winPath,
      }),
    ).toEqual({ alreadyMounted: false });
    expect(
      await mountWith({ status: "alreadyMounted" }).mountVolume({
        volumeId: volumeA,
        targetPath: winPath,
      }),
    ).toEqual({ alreadyMounted: true });
  });

  it.each([
    { status: "occupied", target: "Volume{7c1da3c0-361d-4803-939c-6e375035ab96}\\" },
    { status: "notEmpty" },
    { status: "notDirectory" },
  ] as const)("refuses with CONFLICT when the folder is taken: %j", async (outcome) => {
    expect(
      await codeOf(mountWith(outcome).mountVolume({ volumeId: volumeA, targetPath: winPath })),
    ).toBe("CONFLICT");
  });

  it("maps Add-PartitionAccessPath's 42002 to CONFLICT and a missing folder to NOT_FOUND", async () => {
    const inUse = fakeHost({
      mountVolume: () => Promise.reject(psError("StorageWMI 42002,Add-PartitionAccessPath")),
    });
    expect(
      await codeOf(
        new Volume({ host: inUse, pathStyle: "windows" }).mountVolume({
          volumeId: volumeA,
          targetPath: winPath,
        }),
      ),
    ).toBe("CONFLICT");
    const missing = fakeHost({
      mountVolume: () =>
        Promise.reject(
          psError("PathNotFound,Microsoft.PowerShell.Commands.GetItemCommand", "ObjectNotFound"),
        ),
    });
    expect(
      await codeOf(
        new Volume({ host: missing, pathStyle: "windows" }).mountVolume({
          volumeId: volumeA,
          targetPath: winPath,
        }),
      ),
    ).toBe("NOT_FOUND");
  });

  it("unmount is idempotent and refuses another volume's mount", async () => {
    const unmountWith = (
      outcome: Awaited<ReturnType<ReturnType<typeof fakeHost>["unmountVolume"]>>,
    ) =>
      new Volume({
        host: fakeHost({ unmountVolume: () => Promise.resolve(outcome) }),
        pathStyle: "windows",
      }).unmountVolume({ volumeId: volumeA, targetPath: winPath });
    expect(await unmountWith({ status: "unmounted" })).toEqual({ wasMounted: true });
    expect(await unmountWith({ status: "notMounted" })).toEqual({ wasMounted: false });
    expect(await codeOf(unmountWith({ status: "otherVolume", target: volumeB }))).toBe("CONFLICT");
  });

  it("maps a missing volume to NOT_FOUND", async () => {
    const host = fakeHost({
      unmountVolume: () =>
        Promise.reject(
          psError("CmdletizationQuery_NotFound_UniqueId,Get-Volume", "ObjectNotFound"),
        ),
    });
    expect(
      await codeOf(
        new Volume({ host, pathStyle: "windows" }).unmountVolume({
          volumeId: volumeA,
          targetPath: winPath,
        }),
      ),
    ).toBe("NOT_FOUND");
  });

  it("passes other failures through unchanged", async () => {
    const failure = psError("StorageWMI 42007,Add-PartitionAccessPath");
    const host = fakeHost({ mountVolume: () => Promise.reject(failure) });
    await expect(
      new Volume({ host, pathStyle: "windows" }).mountVolume({
        volumeId: volumeA,
        targetPath: winPath,
      }),
    ).rejects.toBe(failure);
  });
});

describe("isVolumeFormatted, formatVolume, stats, disk number, cache", () => {
  it.each([
    ["NTFS", true],
    ["ReFS", true],
    ["FAT32", true],
    ["Unknown", false],
    ["unknown", false],
    ["", false],
    ["0", false],
  ])("FileSystemType %j → formatted %s", async (type, formatted) => {
    const host = fakeHost({ getVolume: () => Promise.resolve(info({ fileSystemType: type })) });
    expect(await new Volume({ host }).isVolumeFormatted({ volumeId: volumeA })).toEqual({
      formatted,
    });
  });

  it("formats NTFS without a label by default, ReFS with one on request", async () => {
    const host = fakeHost({ formatVolume: () => Promise.resolve() });
    const volume = new Volume({ host });
    expect(await volume.formatVolume({ volumeId: volumeA })).toEqual({});
    expect(host.formatVolume).toHaveBeenLastCalledWith(volumeA, "NTFS", "", context);
    await volume.formatVolume({ volumeId: volumeA, fileSystem: "ReFS", label: "data" });
    expect(host.formatVolume).toHaveBeenLastCalledWith(volumeA, "ReFS", "data", context);
  });

  it("reports Size and Size - SizeRemaining, exact beyond 2^53", async () => {
    const host = fakeHost({ getVolume: () => Promise.resolve(info()) });
    expect(await new Volume({ host }).getVolumeStats({ volumeId: volumeA })).toEqual({
      totalBytes: 1073741824,
      usedBytes: 73741824,
    });
    const huge = fakeHost({
      getVolume: () => Promise.resolve(info({ size: 2n ** 60n + 1n, sizeRemaining: 1n })),
    });
    expect(await new Volume({ host: huge }).getVolumeStats({ volumeId: volumeA })).toEqual({
      totalBytes: 2n ** 60n + 1n,
      usedBytes: 2n ** 60n,
    });
  });

  it("returns the disk number; none is NOT_FOUND, several disks FAILED_PRECONDITION", async () => {
    const with_ = (numbers: number[]) =>
      new Volume({
        host: fakeHost({ getDiskNumbers: () => Promise.resolve(numbers) }),
      }).getDiskNumberFromVolumeId({ volumeId: volumeA });
    expect(await with_([2])).toEqual({ diskNumber: 2 });
    expect(await with_([2, 2])).toEqual({ diskNumber: 2 });
    expect(await codeOf(with_([]))).toBe("NOT_FOUND");
    expect(await codeOf(with_([1, 2]))).toBe("FAILED_PRECONDITION");
  });

  it("flushes the cache", async () => {
    const host = fakeHost({ writeVolumeCache: () => Promise.resolve() });
    expect(await new Volume({ host }).writeVolumeCache({ volumeId: volumeA })).toEqual({});
    expect(host.writeVolumeCache).toHaveBeenCalledWith(volumeA, context);
  });
});

describe("listVolumeDisks", () => {
  it("groups each volume's partitions by id, ordered, disks ascending and once each", async () => {
    const other = volumeA.replace("452e318a", "052e318a");
    const host = fakeHost({
      listVolumeDisks: () =>
        Promise.resolve([
          { volumeId: volumeA, diskNumber: 4 },
          { volumeId: other, diskNumber: 2 },
          { volumeId: volumeA, diskNumber: 3 },
          { volumeId: volumeA, diskNumber: 4 },
        ]),
    });
    expect(await new Volume({ host }).listVolumeDisks()).toEqual({
      volumes: [
        { volumeId: other, diskNumbers: [2] },
        { volumeId: volumeA, diskNumbers: [3, 4] },
      ],
    });
    expect(await codeOf(new Volume({ host }).listVolumeDisks(null as never))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(host.listVolumeDisks).toHaveBeenCalledTimes(1);
  });
});

describe("listVolumeMountPoints", () => {
  it("returns the host's access paths under the volume's lock and context", async () => {
    const host = fakeHost({
      listMountPoints: () => Promise.resolve(["D:\\", "C:\\var\\lib\\kubelet\\mount-1\\"]),
    });
    expect(await new Volume({ host }).listVolumeMountPoints({ volumeId: volumeA })).toEqual({
      mountPoints: ["D:\\", "C:\\var\\lib\\kubelet\\mount-1\\"],
    });
    expect(host.listMountPoints).toHaveBeenCalledWith(volumeA, context);
  });

  it("maps a missing volume to NOT_FOUND", async () => {
    const host = fakeHost({
      listMountPoints: () => Promise.reject(psError("VolumeNotFound", "ObjectNotFound")),
    });
    expect(await codeOf(new Volume({ host }).listVolumeMountPoints({ volumeId: volumeA }))).toBe(
      "NOT_FOUND",
    );
  });
});

describe("resizeVolume", () => {
  // The size rules (0 is SizeMax, clamping, the 100 MiB rule, the layout's maximum without
  // defragsvc) are the script's, run on the simulator (sim-flow, sim-resize-edges); resize.ts
  // states them and resize.test.ts checks that statement. Here: what Volume makes of each outcome.
  function resizer(outcome: Awaited<ReturnType<VolumeHost["resizeVolume"]>>) {
    const host = fakeHost({ resizeVolume: () => Promise.resolve(outcome) });
    return { host, volume: new Volume({ host }) };
  }

  it("asks the host once with the requested size (0 for the maximum; bigint sizes too)", async () => {
    const { host, volume } = resizer({ status: "resized", sizeBytes: 2048n * mib });
    expect(await volume.resizeVolume({ volumeId: volumeA, sizeBytes: 0 })).toEqual({
      resized: true,
    });
    expect(host.resizeVolume).toHaveBeenLastCalledWith(volumeA, 0n, context);
    await volume.resizeVolume({ volumeId: volumeA, sizeBytes: 1536 * 1024 * 1024 });
    expect(host.resizeVolume).toHaveBeenLastCalledWith(volumeA, 1536n * mib, context);
    await volume.resizeVolume({ volumeId: volumeA, sizeBytes: 2n ** 60n });
    expect(host.resizeVolume).toHaveBeenLastCalledWith(volumeA, 2n ** 60n, context);
    expect(host.resizeVolume).toHaveBeenCalledTimes(3);
  });

  it("a skipped resize (shrink, same size, growth under 100 MiB) is success without change", async () => {
    const { volume } = resizer({ status: "skipped" });
    expect(await volume.resizeVolume({ volumeId: volumeA, sizeBytes: mib })).toEqual({
      resized: false,
    });
  });

  it("refuses an explicit size above the disk with a retryable FAILED_PRECONDITION (stale cache, N1b)", async () => {
    const { volume } = resizer({ status: "unreachable", diskSize: 1100n * mib });
    const error = await volume
      .resizeVolume({ volumeId: volumeA, sizeBytes: 2048n * mib })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "FAILED_PRECONDITION" });
    expect((error as Error).message).toContain(String(1100n * mib));
    expect((error as Error).message).toContain("retry");
  });

  it("throws SupportedSizeUnavailableError when SizeMax is missing or Get-PartitionSupportedSize fails", async () => {
    const missing = resizer({ status: "noSizeMax" }).volume.resizeVolume({
      volumeId: volumeA,
      sizeBytes: 0,
    });
    await expect(missing).rejects.toSatisfy(isSupportedSizeUnavailableError);
    const host = fakeHost({
      resizeVolume: () => Promise.reject(psError("StorageWMI 4,Get-PartitionSupportedSize")),
    });
    const failing = new Volume({ host }).resizeVolume({ volumeId: volumeA, sizeBytes: 0 });
    const error: unknown = await failing.catch((e: unknown) => e);
    expect(isSupportedSizeUnavailableError(error)).toBe(true);
    expect(error).toMatchObject({
      code: "FAILED_PRECONDITION",
      volumeId: volumeA,
      name: "SupportedSizeUnavailableError",
    });
    expect((error as Error).message).toContain("defragsvc");
    expect((error as Error).cause).toBeDefined();
  });

  it("maps a missing volume to NOT_FOUND", async () => {
    const host = fakeHost({
      resizeVolume: () => Promise.reject(psError("VolumeNotFound", "ObjectNotFound")),
    });
    expect(
      await codeOf(new Volume({ host }).resizeVolume({ volumeId: volumeA, sizeBytes: 5 })),
    ).toBe("NOT_FOUND");
  });
});

describe("target path lookups", () => {
  const lookupWith = (
    lookup: Awaited<ReturnType<ReturnType<typeof fakeHost>["findClosestVolume"]>>,
  ) => {
    const host = fakeHost({
      resolveMountTarget: () => Promise.resolve(lookup),
      findClosestVolume: () => Promise.resolve(lookup),
    });
    return { host, volume: new Volume({ host, pathStyle: "windows" }) };
  };

  it("returns the volume and bounds the walk at 256", async () => {
    const { host, volume } = lookupWith({ status: "found", volumeId: volumeB });
    expect(await volume.getVolumeIdFromTargetPath({ targetPath: winPath })).toEqual({
      volumeId: volumeB,
    });
    expect(await volume.getClosestVolumeIdFromTargetPath({ targetPath: winPath })).toEqual({
      volumeId: volumeB,
    });
    expect(host.resolveMountTarget).toHaveBeenCalledWith(winPath, 256, context);
    expect(host.findClosestVolume).toHaveBeenCalledWith(winPath, 256, context);
  });

  it.each([
    [{ status: "notMounted", path: winPath }, "NOT_FOUND"],
    [{ status: "noVolume", path: "C:\\" }, "NOT_FOUND"],
    [{ status: "tooDeep" }, "FAILED_PRECONDITION"],
  ] as const)("%j → %s", async (lookup, code) => {
    const { volume } = lookupWith(lookup);
    expect(await codeOf(volume.getVolumeIdFromTargetPath({ targetPath: winPath }))).toBe(code);
    expect(await codeOf(volume.getClosestVolumeIdFromTargetPath({ targetPath: winPath }))).toBe(
      code,
    );
  });
});
