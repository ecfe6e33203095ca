import { mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import type { Params, PowerShell, RunOptions, Script } from "@csi-proxy/exec";
import { badCallOptions, describeWithPwsh, gate, publicMethods } from "@csi-proxy/test-utils";
import type { Simulator } from "@csi-proxy/winsim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPowerShellVolumeHost, Volume } from "../src/index.js";
import { fakeHost, mib, volumeA } from "./fake-host.js";
import { codeOf, dataDiskScenario, gib, startSimulator, volumeIdOf } from "./sim-helpers.js";

// Issue #11 §1: every method takes { signal?, timeoutMs? } covering its lock wait, every script
// and its Node-side work; a cancelled method is safe to retry.

const targetPath = "C:\\var\\lib\\kubelet\\staging\\pv-1";

/** A valid request for every public method; the first test proves the table is complete. */
const requests: Record<string, object> = {
  listVolumesOnDisk: { diskNumber: 1 },
  mountVolume: { volumeId: volumeA, targetPath },
  unmountVolume: { volumeId: volumeA, targetPath },
  isVolumeFormatted: { volumeId: volumeA },
  formatVolume: { volumeId: volumeA },
  resizeVolume: { volumeId: volumeA, sizeBytes: 0 },
  getVolumeStats: { volumeId: volumeA },
  getDiskNumberFromVolumeId: { volumeId: volumeA },
  listVolumeDisks: {},
  getVolumeIdFromTargetPath: { targetPath },
  getClosestVolumeIdFromTargetPath: { targetPath },
  writeVolumeCache: { volumeId: volumeA },
  listVolumeMountPoints: { volumeId: volumeA },
};

type Method = (request: object, options?: unknown) => Promise<unknown>;

function call(volume: Volume, name: string, options: unknown): Promise<unknown> {
  const method = (volume as unknown as Record<string, Method>)[name];
  if (method === undefined || requests[name] === undefined) throw new Error(`no ${name}`);
  return method.call(volume, requests[name], options);
}

/** How many times any method of a fake host was called. */
function hostCalls(host: ReturnType<typeof fakeHost>): number {
  return Object.values(host).reduce((sum, fn) => sum + fn.mock.calls.length, 0);
}

describe("every Volume method's options", () => {
  it("has a request in this table for every public method", () => {
    const names = publicMethods(new Volume({ host: fakeHost(), pathStyle: "windows" })).map(
      ([name]) => name,
    );
    expect(names.sort()).toEqual(Object.keys(requests).sort());
  });

  for (const name of Object.keys(requests)) {
    it(`${name} refuses bad options with INVALID_ARGUMENT before calling the host`, async () => {
      const host = fakeHost();
      const volume = new Volume({ host, pathStyle: "windows" });
      for (const options of badCallOptions) {
        expect(await codeOf(call(volume, name, options))).toBe("INVALID_ARGUMENT");
      }
      expect(hostCalls(host)).toBe(0);
    });

    it(`${name} fails with ABORTED on an aborted signal without calling the host`, async () => {
      const host = fakeHost();
      const volume = new Volume({ host, pathStyle: "windows" });
      expect(await codeOf(call(volume, name, { signal: AbortSignal.abort() }))).toBe("ABORTED");
      expect(hostCalls(host)).toBe(0);
    });
  }
});

describe("a Volume call waiting for its volume's lock", () => {
  it("gives up with ABORTED when aborted, never runs, and the holder finishes", async () => {
    const entered = gate();
    const release = gate();
    const host = fakeHost({
      mountVolume: async () => {
        entered.open();
        await release.opened;
        return { status: "mounted" };
      },
      unmountVolume: () => Promise.resolve({ status: "unmounted" }),
    });
    const volume = new Volume({ host, pathStyle: "windows" });
    const holder = volume.mountVolume({ volumeId: volumeA, targetPath });
    await entered.opened;
    const controller = new AbortController();
    const waiter = volume.unmountVolume(
      { volumeId: volumeA, targetPath },
      { signal: controller.signal },
    );
    controller.abort();
    expect(await codeOf(waiter)).toBe("ABORTED");
    release.open();
    await expect(holder).resolves.toEqual({ alreadyMounted: false });
    expect(host.unmountVolume).not.toHaveBeenCalled();
  });

  it("fails with TIMEOUT when its deadline passes while it waits", async () => {
    const entered = gate();
    const release = gate();
    const host = fakeHost({
      formatVolume: async () => {
        entered.open();
        await release.opened;
      },
    });
    const volume = new Volume({ host, pathStyle: "windows" });
    const holder = volume.formatVolume({ volumeId: volumeA });
    await entered.opened;
    expect(await codeOf(volume.getVolumeStats({ volumeId: volumeA }, { timeoutMs: 20 }))).toBe(
      "TIMEOUT",
    );
    release.open();
    await holder;
    expect(host.getVolume).not.toHaveBeenCalled();
  });
});

describe("one deadline across a method's scripts", () => {
  it("resizeVolume: its one script gets the timeoutMs and the caller's signal", async () => {
    const runs: { script: string; options: RunOptions | undefined }[] = [];
    const shell: PowerShell = {
      mode: "session",
      run: async <T>(script: Script, _params?: Params, options?: RunOptions): Promise<T> => {
        runs.push({ script: script.name, options });
        await new Promise((resolve) => setTimeout(resolve, 5));
        const resized = { Status: "resized", Size: 2 * gib };
        return (script.name === "volume.resizeVolume" ? resized : undefined) as T;
      },
      warmUp: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const volume = new Volume({ host: createPowerShellVolumeHost(shell), pathStyle: "windows" });
    const controller = new AbortController();
    const options = { signal: controller.signal, timeoutMs: 60_000 };
    expect(await volume.resizeVolume({ volumeId: volumeA, sizeBytes: 0 }, options)).toEqual({
      resized: true,
    });
    expect(runs.map((r) => r.script)).toEqual(["volume.resizeVolume"]);
    const [first] = runs.map((r) => r.options?.timeoutMs ?? Infinity);
    expect(first).toBeLessThanOrEqual(60_000);
    expect(runs.every((r) => r.options?.signal === controller.signal)).toBe(true);
  });

  it("a host method called on its own passes no deadline", async () => {
    const seen: (RunOptions | undefined)[] = [];
    const shell: PowerShell = {
      mode: "session",
      run: <T>(_script: Script, _params?: Params, options?: RunOptions): Promise<T> => {
        seen.push(options);
        return Promise.resolve(undefined as T);
      },
      warmUp: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    await createPowerShellVolumeHost(shell).writeVolumeCache(volumeA);
    expect(seen).toEqual([{}]);
  });
});

/**
 * Aborts `controller` once every fault on file has been met (the hung cmdlet is running), or
 * gives up when `call` settles first; resolves with `call`'s error code.
 */
async function abortWhenHung(
  sim: Simulator,
  controller: AbortController,
  call: Promise<unknown>,
): Promise<string> {
  const progress = { settled: false };
  const outcome = codeOf(call).finally(() => (progress.settled = true));
  while (!progress.settled && !sim.faults().every((f) => f.times === 0)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  controller.abort();
  return outcome;
}

/** A disk's partitions and volumes without their GUIDs; access paths by folder name. */
function diskShape(sim: Simulator, diskNumber: number) {
  const state = sim.state();
  return state.partitions
    .filter((p) => p.diskNumber === diskNumber)
    .map(({ guid: _g, volume, diskNumber: _d, accessPaths, ...p }) => {
      const v = state.volumes.find((x) => x.guid === volume);
      return {
        ...p,
        accessPaths: accessPaths.map((a) => basename(a)),
        volume: v === undefined ? null : { fileSystem: v.fileSystem, label: v.label, size: v.size },
      };
    });
}

const hangMs = 600_000;

// Disk 1 takes each method uncancelled (the reference); disk 2 is cancelled, then retried.
describeWithPwsh("Volume cancelled on the simulated host", (pwsh) => {
  let sim: Simulator;
  let shell: PowerShell;
  let volume: Volume;
  let reference: string;
  let cancelled: string;

  beforeAll(async () => {
    const spec = dataDiskScenario([
      { number: 2, size: gib, partitionStyle: "GPT", partitions: [{ fileSystem: "" }] },
    ]);
    ({ sim, shell, volume } = await startSimulator(pwsh, spec));
    reference = volumeIdOf(sim, 1);
    cancelled = volumeIdOf(sim, 2);
  });

  afterAll(async () => {
    await shell.close();
    await sim.dispose();
  });

  /** Arms a hang on `command`, runs `method` on disk 2 under an abort once it hangs: ABORTED. */
  async function abortInside(command: string, method: (signal: AbortSignal) => Promise<unknown>) {
    sim.clearFaults();
    sim.fault({ command, action: "delay", delayMs: hangMs });
    const controller = new AbortController();
    expect(await abortWhenHung(sim, controller, method(controller.signal))).toBe("ABORTED");
    sim.clearFaults();
  }

  it("formatVolume aborted in Format-Volume: the driver's check-then-format retry formats once", async () => {
    await volume.formatVolume({ volumeId: reference, label: "data" });
    await abortInside("Format-Volume", (signal) =>
      volume.formatVolume({ volumeId: cancelled, label: "data" }, { signal }),
    );
    // A NodeStage retry checks first; the simulator's hang comes before the format, so RAW.
    expect(await volume.isVolumeFormatted({ volumeId: cancelled })).toEqual({ formatted: false });
    expect(await volume.formatVolume({ volumeId: cancelled, label: "data" })).toEqual({});
    expect(await volume.isVolumeFormatted({ volumeId: cancelled })).toEqual({ formatted: true });
    expect(diskShape(sim, 2)).toEqual(diskShape(sim, 1));
  });

  it("mountVolume aborted in Add-PartitionAccessPath: the retry mounts; unmount likewise", async () => {
    const referenceDir = join(sim.root, "reference", "mnt");
    const cancelledDir = join(sim.root, "cancelled", "mnt");
    mkdirSync(referenceDir, { recursive: true });
    mkdirSync(cancelledDir, { recursive: true });
    await volume.mountVolume({ volumeId: reference, targetPath: referenceDir });
    const mount = { volumeId: cancelled, targetPath: cancelledDir };
    await abortInside("Add-PartitionAccessPath", (signal) => volume.mountVolume(mount, { signal }));
    expect(await volume.mountVolume(mount)).toEqual({ alreadyMounted: false });
    expect(await volume.getVolumeIdFromTargetPath({ targetPath: cancelledDir })).toEqual({
      volumeId: cancelled,
    });
    expect(diskShape(sim, 2)).toEqual(diskShape(sim, 1));

    await volume.unmountVolume({ volumeId: reference, targetPath: referenceDir });
    // Write-VolumeCache ran before the hang: the flush is repeated by the retry, harmlessly.
    await abortInside("Remove-PartitionAccessPath", (signal) =>
      volume.unmountVolume(mount, { signal }),
    );
    expect(await volume.unmountVolume(mount)).toEqual({ wasMounted: true });
    expect(await volume.unmountVolume(mount)).toEqual({ wasMounted: false });
    expect(diskShape(sim, 2)).toEqual(diskShape(sim, 1));
  });

  it("resizeVolume aborted in Resize-Partition: the retry grows the partition as an uncancelled call", async () => {
    sim.update((state) => {
      for (const disk of state.disks) if (disk.number !== 0) disk.size = 2 * gib;
    });
    const sizeBytes = 1536n * mib;
    expect(await volume.resizeVolume({ volumeId: reference, sizeBytes })).toEqual({
      resized: true,
    });
    await abortInside("Resize-Partition", (signal) =>
      volume.resizeVolume({ volumeId: cancelled, sizeBytes }, { signal }),
    );
    expect(await volume.resizeVolume({ volumeId: cancelled, sizeBytes })).toEqual({
      resized: true,
    });
    // Once grown, a further retry changes nothing.
    expect(await volume.resizeVolume({ volumeId: cancelled, sizeBytes })).toEqual({
      resized: false,
    });
    expect(diskShape(sim, 2)).toEqual(diskShape(sim, 1));
  });

  it("a small timeoutMs on a hung lookup ends in TIMEOUT and the next call is served", async () => {
    sim.clearFaults();
    sim.fault({ command: "Get-Volume", action: "delay", delayMs: hangMs });
    expect(await codeOf(volume.getVolumeStats({ volumeId: cancelled }, { timeoutMs: 1_000 }))).toBe(
      "TIMEOUT",
    );
    sim.clearFaults();
    expect((await volume.getVolumeStats({ volumeId: cancelled })).totalBytes).toBeGreaterThan(0);
  });
});
