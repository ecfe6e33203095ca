import { Disk, callOptionsFromGrpcCall, type GrpcServerCallLike } from "@csi-proxy/disk";
import { createPowerShell, isCsiProxyError, type PowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Volume } from "@csi-proxy/volume";
import { Simulator } from "@csi-proxy/winsim";
import { afterEach, expect, it } from "vitest";

const gib = 1024 ** 3;
const page83 = "DEADLINE-HANDLER-DISK";

/** A @grpc/grpc-js server call as far as the handler reads it. */
function grpcCall(deadline: Date | number): GrpcServerCallLike {
  return { getDeadline: () => deadline, on: () => undefined };
}

/** The NodeStage handler of docs/guides/deadlines.md, as written there. */
async function nodeStage(
  disk: Disk,
  volume: Volume,
  call: GrpcServerCallLike,
  stagingPath: string,
) {
  const options = callOptionsFromGrpcCall(call);
  const { diskNumber } = await disk.getDiskNumberByPage83({ page83 }, options);
  await disk.setDiskState({ diskNumber, isOnline: true, clearReadOnly: true }, options);
  await disk.partitionDisk({ diskNumber }, options);
  const [volumeId] = (await volume.listVolumesOnDisk({ diskNumber }, options)).volumeIds;
  if (volumeId === undefined) throw new Error(`disk ${diskNumber} has no volume`);
  const { formatted } = await volume.isVolumeFormatted({ volumeId }, options);
  if (!formatted) await volume.formatVolume({ volumeId }, options);
  await volume.mountVolume({ volumeId, targetPath: stagingPath }, options);
}

// Issue #16 §1: a timeoutMs computed once and passed to every call gave each call the whole
// budget (a 3 s handler failed after 6.4 s). With the absolute deadline the guide now uses, the
// whole handler ends by the client's deadline however many calls it makes.
describeWithPwsh("the deadlines guide's NodeStage handler", (pwsh) => {
  let sim: Simulator | undefined;
  let shell: PowerShell | undefined;

  async function node() {
    sim = await Simulator.create({
      disks: [{ number: 1, size: gib, page83: { ascii: page83 }, offline: true }],
    });
    shell = createPowerShell(sim.shellOptions({ executable: pwsh }));
    // The process start is the driver's start-up cost, not the handler's.
    await shell.warmUp({ timeoutMs: 120_000 });
    const disk = new Disk({ shell });
    // As the guide advises at start-up: one cheap read compiles the page-83 reader.
    await disk.listDiskIds();
    const staging = `${sim.root}/staging`;
    return { sim, staging, disk, volume: new Volume({ shell, pathStyle: "posix" }) };
  }

  afterEach(async () => {
    await shell?.close();
    await sim?.dispose();
  });

  it("stages the disk when the client gives it time", async () => {
    const { sim, disk, volume, staging } = await node();
    const { mkdirSync } = await import("node:fs");
    mkdirSync(staging, { recursive: true });
    await nodeStage(disk, volume, grpcCall(new Date(Date.now() + 120_000)), staging);
    expect(sim.state().partitions.some((p) => p.accessPaths.includes(`${staging}/`))).toBe(true);
  });

  it("ends within the client's deadline when every step is slower than the whole budget allows", async () => {
    const { sim, disk, volume, staging } = await node();
    // Every change Windows makes takes 0.7 s: six of them need far more than the 2.5 s
    // budget, though each step alone fits in it, so options that gave each call a fresh budget
    // would run past it.
    for (const command of ["Set-Disk", "Initialize-Disk", "New-Partition", "Format-Volume"])
      sim.fault({ command, action: "delay", delayMs: 700, times: -1 });
    sim.fault({ command: "Add-PartitionAccessPath", action: "delay", delayMs: 700, times: -1 });
    const budgetMs = 2_500;
    const started = Date.now();
    const error: unknown = await nodeStage(
      disk,
      volume,
      grpcCall(new Date(started + budgetMs)),
      staging,
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    const elapsed = Date.now() - started;
    expect(isCsiProxyError(error) && error.code).toBe("TIMEOUT");
    // The behaviour under test is the bound itself; the margin covers ending a PowerShell process.
    expect(elapsed).toBeLessThan(budgetMs + 1_500);
  });
});
