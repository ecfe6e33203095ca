import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import type { Simulator } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Volume } from "../src/index.js";
import { codeOf, gib, startSimulator, volumeIdOf } from "./sim-helpers.js";

describeWithPwsh("listVolumeMountPoints on the simulator", (pwsh) => {
  let sim: Simulator;
  let shell: PowerShell;
  let volume: Volume;

  beforeAll(async () => {
    ({ sim, shell, volume } = await startSimulator(pwsh, {
      disks: [
        { number: 1, size: gib, partitionStyle: "GPT", partitions: [{ fileSystem: "NTFS" }] },
        {
          number: 2,
          size: gib,
          partitionStyle: "GPT",
          partitions: [{ fileSystem: "NTFS", driveLetter: "D" }],
        },
      ],
    }));
  });

  afterAll(async () => {
    await shell.close();
    await sim.dispose();
  });

  it("an unmounted volume has none: its \\\\?\\Volume{GUID}\\ path is not listed", async () => {
    expect(await volume.listVolumeMountPoints({ volumeId: volumeIdOf(sim, 1) })).toEqual({
      mountPoints: [],
    });
  });

  it("lists the drive root and every mount folder, as the partition stores them", async () => {
    const volumeId = volumeIdOf(sim, 2);
    const folder = join(sim.root, "staging", "pv-2");
    mkdirSync(folder, { recursive: true });
    await volume.mountVolume({ volumeId, targetPath: folder });
    const stored = sim.state().partitions.find((p) => p.diskNumber === 2 && p.volume !== null);
    expect(stored?.accessPaths).toHaveLength(1);
    expect(await volume.listVolumeMountPoints({ volumeId })).toEqual({
      mountPoints: ["D:\\", ...(stored?.accessPaths ?? [])],
    });
    await volume.unmountVolume({ volumeId, targetPath: folder });
    expect(await volume.listVolumeMountPoints({ volumeId })).toEqual({ mountPoints: ["D:\\"] });
  });

  it("an unknown volume is NOT_FOUND", async () => {
    const volumeId = "\\\\?\\Volume{00000000-1111-2222-3333-444444444444}\\";
    expect(await codeOf(volume.listVolumeMountPoints({ volumeId }))).toBe("NOT_FOUND");
  });
});
