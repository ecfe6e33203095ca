import { createPowerShell, isCsiProxyError, type ExecMode, type PowerShell } from "@csi-proxy/exec";
import { Simulator, type ScenarioSpec } from "@csi-proxy/winsim";
import { Volume } from "../src/index.js";

export const gib = 1024 * 1024 * 1024;
export const mibNumber = 1024 * 1024;

/** Upstream's sizeIsAround: expected − 20 MiB ≤ actual ≤ expected. */
export function sizeIsAround(actual: number | bigint, expected: number): boolean {
  const value = Number(actual);
  return value >= expected - 20 * mibNumber && value <= expected;
}

/** Disk 1: a 1 GiB GPT disk (MSR + one data partition) whose volume is RAW, as upstream's volumeInit starts. */
export function dataDiskScenario(extra: ScenarioSpec["disks"] = []): ScenarioSpec {
  return {
    disks: [
      { number: 1, size: gib, partitionStyle: "GPT", partitions: [{ fileSystem: "" }] },
      ...extra,
    ],
  };
}

/** `\\?\Volume{GUID}\` of a partition in the simulator's state. */
export function volumeIdOf(sim: Simulator, diskNumber: number, partitionNumber?: number): string {
  const partition = sim
    .state()
    .partitions.find(
      (p) =>
        p.diskNumber === diskNumber &&
        p.volume !== null &&
        (partitionNumber === undefined || p.partitionNumber === partitionNumber),
    );
  if (partition?.volume == null) throw new Error(`no volume on disk ${diskNumber}`);
  return `\\\\?\\Volume{${partition.volume}}\\`;
}

/** The system volume: the partition whose access paths hold '/'. */
export function systemVolumeId(sim: Simulator): string {
  const partition = sim.state().partitions.find((p) => p.accessPaths.includes("/"));
  if (partition?.volume == null) throw new Error("no system volume");
  return `\\\\?\\Volume{${partition.volume}}\\`;
}

/** A simulator, a PowerShell on it and a posix-style Volume. */
export async function startSimulator(
  pwsh: string,
  spec: ScenarioSpec,
  mode: ExecMode = "session",
): Promise<{ sim: Simulator; shell: PowerShell; volume: Volume }> {
  const sim = await Simulator.create(spec);
  const shell = createPowerShell(sim.shellOptions({ executable: pwsh, mode, poolSize: 2 }));
  return { sim, shell, volume: new Volume({ shell, pathStyle: "posix" }) };
}

/** The code a call failed with. */
export async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return isCsiProxyError(error) ? error.code : `not a CsiProxyError: ${String(error)}`;
  }
  return "no error";
}
