// Typical read calls of a CSI node on the simulated host, spawn mode vs a warm session.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Disk } from "@csi-proxy/disk";
import { createPowerShell, type ExecMode, type PowerShell } from "@csi-proxy/exec";
import { Volume } from "@csi-proxy/volume";
import { scenarios, Simulator } from "@csi-proxy/winsim";
import { measureCalls, type Budget, type Row } from "./measure.js";
import { warmPool } from "./overhead.js";

/** A simulated host with one volume mounted at a kubelet-like path, for read calls. */
export interface ReadHost {
  readonly sim: Simulator;
  readonly volumeId: string;
  readonly targetPath: string;
  shell(mode: ExecMode, poolSize: number): PowerShell;
}

/** Creates the host and mounts disk 1's volume (done once, through a session, and not measured). */
export async function createReadHost(pwsh: string): Promise<ReadHost> {
  const sim = await Simulator.create(scenarios.demo());
  const shell = (mode: ExecMode, poolSize: number): PowerShell =>
    createPowerShell(sim.shellOptions({ executable: pwsh, mode, poolSize }));
  const setup = shell("session", 1);
  try {
    const volume = new Volume({ shell: setup, pathStyle: "posix" });
    const [volumeId] = (await volume.listVolumesOnDisk({ diskNumber: 1 })).volumeIds;
    if (volumeId === undefined) throw new Error("the demo scenario's disk 1 has no volume");
    const targetPath = join(sim.root, "var", "lib", "kubelet", "plugins", "bench", "globalmount");
    mkdirSync(targetPath, { recursive: true });
    await volume.mountVolume({ volumeId, targetPath });
    return { sim, volumeId, targetPath, shell };
  } finally {
    await setup.close();
  }
}

const budgets: Record<ExecMode, Budget> = {
  spawn: { timeMs: 0, iterations: 3, warmupIterations: 0 },
  session: { timeMs: 2_000, iterations: 50, warmupIterations: 5 },
};

/** getVolumeStats, listDiskIds and getVolumeIdFromTargetPath, each in spawn and session mode. */
export async function measureReads(host: ReadHost): Promise<Row[]> {
  const rows: Row[] = [];
  for (const mode of ["spawn", "session"] as const) {
    const shell = host.shell(mode, 1);
    if (mode === "session") await warmPool(shell, 1);
    const volume = new Volume({ shell, pathStyle: "posix" });
    const disk = new Disk({ shell });
    const { volumeId, targetPath } = host;
    const calls: [string, () => Promise<unknown>][] = [
      ["getVolumeStats", () => volume.getVolumeStats({ volumeId })],
      ["listDiskIds", () => disk.listDiskIds()],
      ["getVolumeIdFromTargetPath", () => volume.getVolumeIdFromTargetPath({ targetPath })],
    ];
    try {
      for (const [name, call] of calls)
        rows.push(await measureCalls(`${name}, ${mode}`, call, budgets[mode]));
    } finally {
      await shell.close();
    }
  }
  return rows;
}
