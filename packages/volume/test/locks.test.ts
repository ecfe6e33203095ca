import { describe, expect, it } from "vitest";
import { Volume, type VolumeInfo } from "../src/index.js";
import { fakeHost, volumeA, volumeB } from "./fake-host.js";

/** A host whose getVolume/mount calls record their overlap and wait for the test to release them. */
function gatedHost() {
  let running = 0;
  let maxRunning = 0;
  const order: string[] = [];
  const gate = (label: string) => async () => {
    running++;
    maxRunning = Math.max(maxRunning, running);
    order.push(`start ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push(`end ${label}`);
    running--;
  };
  const volumeInfo: VolumeInfo = {
    volumeId: volumeA,
    fileSystem: "NTFS",
    fileSystemType: "NTFS",
    label: "",
    size: 10n,
    sizeRemaining: 5n,
  };
  const host = fakeHost({
    getVolume: async (id) => {
      await gate(`stats ${id}`)();
      return volumeInfo;
    },
    writeVolumeCache: (id) => gate(`flush ${id}`)(),
    mountVolume: async (id, path) => {
      await gate(`mount ${id} ${path}`)();
      return { status: "mounted" };
    },
    findClosestVolume: async (path) => {
      await gate(`closest ${path}`)();
      return { status: "found", volumeId: volumeA };
    },
  });
  return { host, order, maxRunning: () => maxRunning };
}

describe("keyed locks", () => {
  it("serialise calls on the same volume", async () => {
    const { host, maxRunning, order } = gatedHost();
    const volume = new Volume({ host });
    await Promise.all([
      volume.getVolumeStats({ volumeId: volumeA }),
      volume.writeVolumeCache({ volumeId: volumeA.toUpperCase().replace("VOLUME", "Volume") }),
      volume.isVolumeFormatted({ volumeId: volumeA }),
    ]);
    expect(maxRunning()).toBe(1);
    expect(order[0]).toMatch(/^start stats/);
    expect(order[1]).toMatch(/^end stats/);
  });

  it("run calls on different volumes in parallel", async () => {
    const { host, maxRunning } = gatedHost();
    const volume = new Volume({ host });
    await Promise.all([
      volume.getVolumeStats({ volumeId: volumeA }),
      volume.getVolumeStats({ volumeId: volumeB }),
    ]);
    expect(maxRunning()).toBe(2);
  });

  it("serialise mounts of different volumes on the same Windows path, in any spelling", async () => {
    const { host, maxRunning } = gatedHost();
    const volume = new Volume({ host, pathStyle: "windows" });
    await Promise.all([
      volume.mountVolume({ volumeId: volumeA, targetPath: "C:\\mnt\\x" }),
      volume.mountVolume({ volumeId: volumeB, targetPath: "c:\\MNT\\x\\" }),
      volume.getClosestVolumeIdFromTargetPath({ targetPath: "\\\\?\\C:\\mnt\\X" }),
    ]);
    expect(maxRunning()).toBe(1);
  });

  it("serialise a mount with other work on its volume but not on other paths", async () => {
    const { host, maxRunning } = gatedHost();
    const volume = new Volume({ host, pathStyle: "posix" });
    await Promise.all([
      volume.mountVolume({ volumeId: volumeA, targetPath: "/mnt/a" }),
      volume.writeVolumeCache({ volumeId: volumeA }),
    ]);
    expect(maxRunning()).toBe(1);
    await Promise.all([
      volume.mountVolume({ volumeId: volumeA, targetPath: "/mnt/a" }),
      volume.getClosestVolumeIdFromTargetPath({ targetPath: "/mnt/b" }),
    ]);
    expect(maxRunning()).toBe(2);
  });

  it("release the lock when a call fails", async () => {
    const host = fakeHost({ writeVolumeCache: () => Promise.reject(new Error("boom")) });
    const volume = new Volume({ host });
    await expect(volume.writeVolumeCache({ volumeId: volumeA })).rejects.toThrow("boom");
    host.writeVolumeCache.mockResolvedValue(undefined);
    await expect(volume.writeVolumeCache({ volumeId: volumeA })).resolves.toEqual({});
  });
});
