import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import type { Simulator } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import { isSupportedSizeUnavailableError, type Volume } from "../src/index.js";
import { codeOf, dataDiskScenario, startSimulator, volumeIdOf } from "./sim-helpers.js";

const unknownVolume = "\\\\?\\Volume{00000000-1111-2222-3333-444444444444}\\";

describeWithPwsh("volume errors, conflicts and faults on the simulator (session)", (pwsh) => {
  let sim: Simulator;
  let shell: PowerShell;
  let volume: Volume;
  let first: string;
  let second: string;

  beforeAll(async () => {
    ({ sim, shell, volume } = await startSimulator(
      pwsh,
      dataDiskScenario([
        {
          number: 2,
          size: 2 * 1024 ** 3,
          partitionStyle: "GPT",
          partitions: [{ size: 1024 ** 3 }],
        },
        { number: 3, size: 1024 ** 3 },
      ]),
    ));
    first = volumeIdOf(sim, 1);
    second = volumeIdOf(sim, 2);
  });

  afterAll(async () => {
    await shell.close();
    await sim.dispose();
  });

  it("NegativeVolumeTests: ids '' and '-1' fail before any cmdlet runs", async () => {
    sim.clearCalls();
    for (const id of ["", "-1"]) {
      expect(await codeOf(volume.isVolumeFormatted({ volumeId: id }))).toBe("INVALID_ARGUMENT");
      expect(await codeOf(volume.formatVolume({ volumeId: id }))).toBe("INVALID_ARGUMENT");
      expect(await codeOf(volume.resizeVolume({ volumeId: id, sizeBytes: 0 }))).toBe(
        "INVALID_ARGUMENT",
      );
      expect(await codeOf(volume.getVolumeStats({ volumeId: id }))).toBe("INVALID_ARGUMENT");
      expect(await codeOf(volume.mountVolume({ volumeId: id, targetPath: "" }))).toBe(
        "INVALID_ARGUMENT",
      );
      expect(await codeOf(volume.unmountVolume({ volumeId: id, targetPath: "" }))).toBe(
        "INVALID_ARGUMENT",
      );
    }
    expect(await codeOf(volume.resizeVolume({ volumeId: first, sizeBytes: -1 }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.mountVolume({ volumeId: first, targetPath: "relative/dir" }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.getDiskNumberFromVolumeId({ volumeId: "-1" }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.getVolumeIdFromTargetPath({ targetPath: "" }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.getClosestVolumeIdFromTargetPath({ targetPath: "a/b" }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(volume.listVolumesOnDisk({ diskNumber: -1 }))).toBe("INVALID_ARGUMENT");
    expect(sim.calls()).toEqual([]);
  });

  it("a link loop is FAILED_PRECONDITION after 256 steps, not a hang", async () => {
    const a = join(sim.root, "loop-a");
    const b = join(sim.root, "loop-b");
    symlinkSync(b, a);
    symlinkSync(a, b);
    expect(await codeOf(volume.getVolumeIdFromTargetPath({ targetPath: a }))).toBe(
      "FAILED_PRECONDITION",
    );
    expect(await codeOf(volume.getClosestVolumeIdFromTargetPath({ targetPath: a }))).toBe(
      "FAILED_PRECONDITION",
    );
  });

  it("a failed flush aborts the unmount, leaving the mount in place", async () => {
    const dir = join(sim.root, "flush-fails");
    mkdirSync(dir);
    await volume.mountVolume({ volumeId: first, targetPath: dir });
    sim.fault({
      command: "Write-VolumeCache",
      times: 1,
      action: "error",
      error: { message: "The device is not ready.", errorId: "StorageWMI 2" },
    });
    const error: unknown = await volume
      .unmountVolume({ volumeId: first, targetPath: dir })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "COMMAND_FAILED", scriptName: "volume.unmountVolume" });
    expect(await volume.getVolumeIdFromTargetPath({ targetPath: dir })).toEqual({
      volumeId: first,
    });
    expect(await volume.unmountVolume({ volumeId: first, targetPath: dir })).toEqual({
      wasMounted: true,
    });
  });

  it("an unknown volume is NOT_FOUND everywhere", async () => {
    const dir = join(sim.root, "nf");
    mkdirSync(dir, { recursive: true });
    const id = unknownVolume;
    expect(await codeOf(volume.isVolumeFormatted({ volumeId: id }))).toBe("NOT_FOUND");
    expect(await codeOf(volume.formatVolume({ volumeId: id }))).toBe("NOT_FOUND");
    expect(await codeOf(volume.resizeVolume({ volumeId: id, sizeBytes: 0 }))).toBe("NOT_FOUND");
    expect(await codeOf(volume.getVolumeStats({ volumeId: id }))).toBe("NOT_FOUND");
    expect(await codeOf(volume.getDiskNumberFromVolumeId({ volumeId: id }))).toBe("NOT_FOUND");
    expect(await codeOf(volume.writeVolumeCache({ volumeId: id }))).toBe("NOT_FOUND");
    expect(await codeOf(volume.mountVolume({ volumeId: id, targetPath: dir }))).toBe("NOT_FOUND");
    expect(await codeOf(volume.unmountVolume({ volumeId: id, targetPath: dir }))).toBe("NOT_FOUND");
  });

  it("missing disks, partitions and paths are NOT_FOUND; a disk without volumes lists none", async () => {
    expect(await codeOf(volume.listVolumesOnDisk({ diskNumber: 99 }))).toBe("NOT_FOUND");
    expect(await codeOf(volume.listVolumesOnDisk({ diskNumber: 1, partitionNumber: 9 }))).toBe(
      "NOT_FOUND",
    );
    expect(await volume.listVolumesOnDisk({ diskNumber: 3 })).toEqual({ volumeIds: [] });
    const missing = join(sim.root, "does", "not", "exist");
    expect(await codeOf(volume.mountVolume({ volumeId: first, targetPath: missing }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(volume.getVolumeIdFromTargetPath({ targetPath: missing }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(volume.getClosestVolumeIdFromTargetPath({ targetPath: missing }))).toBe(
      "NOT_FOUND",
    );
    expect(await volume.unmountVolume({ volumeId: first, targetPath: missing })).toEqual({
      wasMounted: false,
    });
  });

  it("mounting onto a taken or non-empty folder is CONFLICT; unmounting another volume's mount too", async () => {
    const taken = join(sim.root, "taken");
    const full = join(sim.root, "full");
    mkdirSync(taken, { recursive: true });
    mkdirSync(full, { recursive: true });
    writeFileSync(join(full, "file.txt"), "x");
    expect(await volume.mountVolume({ volumeId: first, targetPath: taken })).toEqual({
      alreadyMounted: false,
    });
    expect(await codeOf(volume.mountVolume({ volumeId: second, targetPath: taken }))).toBe(
      "CONFLICT",
    );
    expect(await codeOf(volume.unmountVolume({ volumeId: second, targetPath: taken }))).toBe(
      "CONFLICT",
    );
    expect(await codeOf(volume.mountVolume({ volumeId: second, targetPath: full }))).toBe(
      "CONFLICT",
    );
    expect(
      await codeOf(volume.mountVolume({ volumeId: second, targetPath: join(full, "file.txt") })),
    ).toBe("CONFLICT");
    expect(await volume.getVolumeIdFromTargetPath({ targetPath: taken })).toEqual({
      volumeId: first,
    });
    expect(await volume.unmountVolume({ volumeId: first, targetPath: taken })).toEqual({
      wasMounted: true,
    });
  });

  it("formats ReFS with a label", async () => {
    expect(
      await volume.formatVolume({ volumeId: second, fileSystem: "ReFS", label: "data 'x'" }),
    ).toEqual({});
    const state = sim.state().volumes.find((v) => second.includes(v.guid));
    expect(state).toMatchObject({ fileSystem: "ReFS", label: "data 'x'" });
    expect(await volume.isVolumeFormatted({ volumeId: second })).toEqual({ formatted: true });
  });

  it("a failing Get-PartitionSupportedSize (defragsvc) is SupportedSizeUnavailableError", async () => {
    sim.fault({
      command: "Get-PartitionSupportedSize",
      times: 1,
      action: "error",
      error: {
        message: "Failed",
        errorId: "StorageWMI 4",
        category: "NotSpecified",
        exceptionType: "Microsoft.Management.Infrastructure.CimException",
        nativeErrorCode: "Failed",
      },
    });
    const error: unknown = await volume
      .resizeVolume({ volumeId: second, sizeBytes: 0 })
      .catch((e: unknown) => e);
    expect(isSupportedSizeUnavailableError(error)).toBe(true);
    expect(error).toMatchObject({ code: "FAILED_PRECONDITION", volumeId: second });
    sim.clearFaults();
    expect(await volume.resizeVolume({ volumeId: second, sizeBytes: 0 })).toEqual({
      resized: true,
    });
  });

  it("calls on one volume never overlap; calls on two volumes may", async () => {
    // Warm both pool processes first, so the parallel call need not wait for a process start.
    await Promise.all([
      volume.writeVolumeCache({ volumeId: first }),
      volume.writeVolumeCache({ volumeId: second }),
    ]);
    sim.clearCalls();
    sim.fault({ command: "Get-Volume", times: -1, action: "delay", delayMs: 300 });
    await Promise.all([
      volume.getVolumeStats({ volumeId: first }),
      volume.getVolumeStats({ volumeId: first }),
      volume.isVolumeFormatted({ volumeId: first }),
      volume.getVolumeStats({ volumeId: second }),
    ]);
    sim.clearFaults();
    const byVolume = (id: string) =>
      sim.calls().filter((c) => c.command === "Get-Volume" && String(c.parameters.UniqueId) === id);
    const mine = byVolume(first).sort((a, b) => a.start - b.start);
    expect(mine).toHaveLength(3);
    for (let i = 1; i < mine.length; i++)
      expect(mine[i]!.start).toBeGreaterThanOrEqual(mine[i - 1]!.end);
    const other = byVolume(second)[0]!;
    expect(mine.some((c) => c.start < other.end && other.start < c.end)).toBe(true);
  });
});
