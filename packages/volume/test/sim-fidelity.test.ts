import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import type { Simulator } from "@csi-proxy/winsim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Volume } from "../src/index.js";
import { gib, startSimulator, volumeIdOf } from "./sim-helpers.js";

// Disk 1's volume is mounted by folder (the kubelet root on a data disk); disk 2 is a CSI volume.
const scenario = (powershell: "5.1" | "7") => ({
  powershell,
  disks: [
    { number: 1, size: gib, partitions: [{ accessPaths: ["kubelet"] }] },
    { number: 2, size: gib, partitions: [{}] },
  ],
});

describe.each(["5.1", "7"] as const)("Get-Item shapes of PowerShell %s (F4)", (edition) => {
  describeWithPwsh("volume paths on a folder-mounted volume", (pwsh) => {
    let sim: Simulator;
    let shell: PowerShell;
    let volume: Volume;

    beforeAll(async () => {
      ({ sim, shell, volume } = await startSimulator(pwsh, scenario(edition)));
    });

    afterAll(async () => {
      await shell.close();
      await sim.dispose();
    });

    it("mounts at an empty folder that lies on a folder-mounted volume", async () => {
      const staging = join(sim.root, "kubelet", "plugins", "pv-1");
      mkdirSync(staging, { recursive: true });
      const volumeId = volumeIdOf(sim, 2);
      expect(await volume.mountVolume({ volumeId, targetPath: staging })).toEqual({
        alreadyMounted: false,
      });
      expect(await volume.getVolumeIdFromTargetPath({ targetPath: staging })).toEqual({
        volumeId,
      });
    });

    it("says a plain folder there is not mounted, without following a hard-link name", async () => {
      const plain = join(sim.root, "kubelet", "pods");
      mkdirSync(plain, { recursive: true });
      sim.clearCalls();
      const error: unknown = await volume
        .getVolumeIdFromTargetPath({ targetPath: plain })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "NOT_FOUND" });
      expect((error as Error).message).toContain("is not a mounted folder");
      expect(sim.calls().filter((c) => c.command === "Get-Item")).toHaveLength(1);
    });

    it("finds the volume holding that folder", async () => {
      const plain = join(sim.root, "kubelet", "pods");
      mkdirSync(plain, { recursive: true });
      expect(await volume.getClosestVolumeIdFromTargetPath({ targetPath: plain })).toEqual({
        volumeId: volumeIdOf(sim, 1),
      });
    });
  });
});

describeWithPwsh("resize to the grown disk's full size on GPT (N1)", (pwsh) => {
  let sim: Simulator;
  let shell: PowerShell;
  let volume: Volume;

  beforeAll(async () => {
    ({ sim, shell, volume } = await startSimulator(pwsh, {
      disks: [{ number: 1, size: gib, partitionStyle: "GPT", partitions: [{}] }],
    }));
  });

  afterAll(async () => {
    await shell.close();
    await sim.dispose();
  });

  it("clamps the request to SizeMax: the partition ends where Get-PartitionSupportedSize says", async () => {
    const volumeId = volumeIdOf(sim, 1);
    sim.update((state) => {
      const disk = state.disks.find((d) => d.number === 1);
      if (disk) disk.size = 2 * gib;
    });
    // What a driver asks for: the new capacity of the disk, more than a GPT partition can hold.
    expect(await volume.resizeVolume({ volumeId, sizeBytes: 2 * gib })).toEqual({ resized: true });
    const partition = sim.state().partitions.find((p) => p.diskNumber === 1 && p.volume !== null);
    // GPT: the last usable byte is 16896 bytes (backup GPT) below the end, rounded down to 1 MiB.
    const usableEnd = Math.floor((2 * gib - 16896) / (1024 * 1024)) * 1024 * 1024;
    expect((partition?.offset ?? 0) + (partition?.size ?? 0)).toBe(usableEnd);
    const resize = sim.calls().find((c) => c.command === "Resize-Partition");
    expect(resize?.parameters.Size).toBe(usableEnd - (partition?.offset ?? 0));
  });

  it("keeps an explicit size that fits when Get-PartitionSupportedSize fails (defragsvc)", async () => {
    const volumeId = volumeIdOf(sim, 1);
    sim.update((state) => {
      const disk = state.disks.find((d) => d.number === 1);
      if (disk) disk.size = 3 * gib;
    });
    sim.fault({
      command: "Get-PartitionSupportedSize",
      action: "error",
      error: { message: "Failed", errorId: "StorageWMI 4" },
    });
    const partition = sim.state().partitions.find((p) => p.diskNumber === 1 && p.volume !== null);
    const target = (partition?.size ?? 0) + 512 * 1024 * 1024;
    expect(await volume.resizeVolume({ volumeId, sizeBytes: target })).toEqual({ resized: true });
    expect(sim.state().partitions.find((p) => p.volume === partition?.volume)?.size).toBe(target);
  });
});
