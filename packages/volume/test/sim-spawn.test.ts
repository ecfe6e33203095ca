import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { codeOf, dataDiskScenario, startSimulator, volumeIdOf } from "./sim-helpers.js";

// Spawn mode starts a process per call: one short flow proves the scripts behave alike there.
describeWithPwsh("volume on the simulator (spawn mode)", (pwsh) => {
  it(
    "lists, mounts, resolves, unmounts and maps a miss to NOT_FOUND",
    { timeout: 180_000 },
    async () => {
      const { sim, shell, volume } = await startSimulator(pwsh, dataDiskScenario(), "spawn");
      try {
        expect(shell.mode).toBe("spawn");
        const volumeId = volumeIdOf(sim, 1);
        const mountDir = join(sim.root, "spawn-mount");
        mkdirSync(mountDir);
        expect(await volume.listVolumesOnDisk({ diskNumber: 1 })).toEqual({
          volumeIds: [volumeId],
        });
        expect(await volume.mountVolume({ volumeId, targetPath: mountDir })).toEqual({
          alreadyMounted: false,
        });
        expect(await volume.getClosestVolumeIdFromTargetPath({ targetPath: mountDir })).toEqual({
          volumeId,
        });
        expect(await volume.unmountVolume({ volumeId, targetPath: mountDir })).toEqual({
          wasMounted: true,
        });
        const unknown = volumeId.replace(/[0-9a-f]{12}\}/, "000000000000}");
        expect(await codeOf(volume.getVolumeStats({ volumeId: unknown }))).toBe("NOT_FOUND");
      } finally {
        await shell.close();
        await sim.dispose();
      }
    },
  );
});
