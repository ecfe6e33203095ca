import { Disk } from "@csi-proxy/disk";
import { createPowerShell, isCsiProxyError, type PowerShell } from "@csi-proxy/exec";
import { Iscsi } from "@csi-proxy/iscsi";
import { Smb } from "@csi-proxy/smb";
import { System } from "@csi-proxy/system";
import { Volume } from "@csi-proxy/volume";
import { defaultServiceSpecs, Simulator, type FaultSpec } from "@csi-proxy/winsim";

/** Settings of a soak run. */
export interface SoakSettings {
  readonly calls: number;
  readonly poolSize: number;
  /** Calls started together; faults are injected only between batches, when no call runs. */
  readonly batch: number;
  readonly timeoutMs: number;
}

/** A simulated node with every group on one pooled PowerShell, and the read calls the soak mixes. */
export interface Workload {
  readonly sim: Simulator;
  readonly shell: PowerShell;
  readonly calls: readonly (() => Promise<unknown>)[];
  close(): Promise<void>;
}

const gib = 1024 ** 3;

export async function createWorkload(pwsh: string, settings: SoakSettings): Promise<Workload> {
  const sim = await Simulator.create({
    disks: [{ number: 1, size: gib, partitionStyle: "GPT", partitions: [{ fileSystem: "NTFS" }] }],
    iscsi: { servers: [{ address: "10.0.0.5", targets: [] }], portals: [{ address: "10.0.0.5" }] },
    smb: { servers: [{ name: "fs1", shares: ["data"] }] },
    // The iSCSI cmdlets need the initiator service running, as on Windows.
    system: {
      services: defaultServiceSpecs().map((spec) =>
        spec.name === "MSiSCSI" ? { ...spec, status: "Running" as const } : spec,
      ),
    },
  });
  const shell = createPowerShell(
    sim.shellOptions({
      executable: pwsh,
      poolSize: settings.poolSize,
      timeoutMs: settings.timeoutMs,
    }),
  );
  const guid = sim.state().partitions.find((p) => p.diskNumber === 1 && p.volume !== null)?.volume;
  const volumeId = `\\\\?\\Volume{${guid ?? ""}}\\`;
  const service = sim.state().system?.services[0]?.name ?? "MSiSCSI";
  const disk = new Disk({ shell });
  const volume = new Volume({ shell, pathStyle: "posix" });
  const system = new System({ shell });
  const iscsi = new Iscsi({ shell });
  const smb = new Smb({ shell, pathStyle: "posix" });
  return {
    sim,
    shell,
    calls: [
      () => disk.getDiskState({ diskNumber: 1 }),
      () => disk.listDiskLocations({}),
      () => volume.getVolumeStats({ volumeId }),
      () => volume.isVolumeFormatted({ volumeId }),
      () => system.getService({ name: service }),
      () => system.getBiosSerialNumber({}),
      () => iscsi.listTargetPortals({}),
      () => smb.listSmbGlobalMappings(),
    ],
    async close() {
      await shell.close();
      await sim.dispose();
    },
  };
}

/** The fault to inject before batch `index`, if any: errors, noise and garbage often, kills and hangs rarely. */
export function faultFor(index: number, settings: SoakSettings): FaultSpec | undefined {
  if (index > 0 && index % 500 === 0)
    return { command: "*", action: "delay", delayMs: settings.timeoutMs + 2_000 };
  if (index % 125 === 62) return { command: "*", action: "kill" };
  if (index % 11 === 5) return { command: "*", action: "garbage" };
  if (index % 7 === 3)
    return {
      command: "*",
      action: "noise",
      noise: ["warning", "progress", "host", "verbose", "information"],
    };
  if (index % 5 === 1)
    return {
      command: "*",
      action: "error",
      error: { message: "Injected failure.", errorId: "StorageWMI 4" },
    };
  return undefined;
}

/** "ok", the typed error's code, or "untyped" for anything that is not a CsiProxyError. */
export async function settle(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "ok";
  } catch (error) {
    return isCsiProxyError(error) ? error.code : "untyped";
  }
}
