import {
  CsiProxyError,
  type Params,
  type PowerShell,
  type RunOptions,
  type Script,
} from "@csi-proxy/exec";
import { badCallOptions, describeWithPwsh, gate, publicMethods } from "@csi-proxy/test-utils";
import type { Simulator } from "@csi-proxy/winsim";
import { describe, expect, it } from "vitest";
import { createPowerShellDiskHost, Disk, type HostPartitionOutcome } from "../src/index.js";
import { FakeDiskHost, type FakeDisk } from "./fake-host.js";
import { failure, GiB, useSimHost } from "./sim-setup.js";

// Issue #11 §1: every method takes { signal?, timeoutMs? } covering its lock wait, every script
// and its Node-side work; a cancelled method is safe to retry.

/** A valid request for every public method; the first test proves the table is complete. */
const requests: Record<string, object> = {
  listDiskLocations: {},
  partitionDisk: { diskNumber: 1 },
  rescan: {},
  listDiskIds: {},
  getDiskStats: { diskNumber: 1 },
  setDiskState: { diskNumber: 1, isOnline: true },
  getDiskState: { diskNumber: 1 },
  getDiskNumberByPage83: { page83: "Google  persistent-disk-1" },
};

type Method = (request: object, options?: unknown) => Promise<unknown>;

function call(disk: Disk, name: string, options: unknown): Promise<unknown> {
  const method = (disk as unknown as Record<string, Method>)[name];
  if (method === undefined || requests[name] === undefined) throw new Error(`no ${name}`);
  return method.call(disk, requests[name], options);
}

/** Disk 1, online, writable and RAW. */
function rawDisk(): FakeDisk {
  return {
    number: 1,
    partitionStyle: 0,
    isOffline: false,
    isReadOnly: false,
    size: GiB,
    partitions: [],
  };
}

describe("every Disk method's options", () => {
  it("has a request in this table for every public method", () => {
    const names = publicMethods(new Disk({ host: new FakeDiskHost() })).map(([name]) => name);
    expect(names.sort()).toEqual(Object.keys(requests).sort());
  });

  for (const name of Object.keys(requests)) {
    it(`${name} refuses bad options with INVALID_ARGUMENT before calling the host`, async () => {
      const host = new FakeDiskHost();
      const disk = new Disk({ host });
      for (const options of badCallOptions) {
        expect((await failure(call(disk, name, options))).code).toBe("INVALID_ARGUMENT");
      }
      expect(host.calls).toEqual([]);
    });

    it(`${name} fails with ABORTED on an aborted signal without calling the host`, async () => {
      const host = new FakeDiskHost();
      const disk = new Disk({ host });
      const error = await failure(call(disk, name, { signal: AbortSignal.abort() }));
      expect(error.code).toBe("ABORTED");
      expect(host.calls).toEqual([]);
    });
  }
});

describe("a Disk call waiting for its disk's lock", () => {
  /** Disk 1 RAW; the holder's first host call waits for `release`. */
  function held() {
    const host = new FakeDiskHost([rawDisk()]);
    const entered = gate();
    const release = gate();
    let first = true;
    host.hook = async () => {
      if (!first) return;
      first = false;
      entered.open();
      await release.opened;
    };
    return { host, disk: new Disk({ host }), entered, release };
  }

  it("gives up with ABORTED when aborted, never runs, and the holder finishes", async () => {
    const { host, disk, entered, release } = held();
    const holder = disk.partitionDisk({ diskNumber: 1 });
    await entered.opened;
    const controller = new AbortController();
    const waiter = disk.setDiskState(
      { diskNumber: 1, isOnline: false },
      { signal: controller.signal },
    );
    controller.abort();
    expect((await failure(waiter)).code).toBe("ABORTED");
    release.open();
    await expect(holder).resolves.toEqual({});
    expect(host.methods()).toEqual(["partitionDisk"]);
    expect(host.steps).toEqual(["Get-Disk", "Initialize-Disk", "Get-Partition", "New-Partition"]);
    expect(host.disks.get(1)?.isOffline).toBe(false);
    // The lock is free again: the next call on the disk runs.
    await expect(disk.getDiskState({ diskNumber: 1 })).resolves.toEqual({ isOnline: true });
  });

  it("fails with TIMEOUT when its deadline passes while it waits", async () => {
    const { host, disk, entered, release } = held();
    const holder = disk.partitionDisk({ diskNumber: 1 });
    await entered.opened;
    const waiter = disk.getDiskStats({ diskNumber: 1 }, { timeoutMs: 20 });
    expect((await failure(waiter)).code).toBe("TIMEOUT");
    release.open();
    await holder;
    expect(host.methods()).toEqual(["partitionDisk"]);
  });
});

describe("a cancelled step that took effect anyway", () => {
  // Ending PowerShell may not stop the Storage service's operation: the less convenient case.
  class LateHost extends FakeDiskHost {
    late = true;
    override async partitionDisk(diskNumber: number): Promise<HostPartitionOutcome> {
      const outcome = await super.partitionDisk(diskNumber);
      if (!this.late) return outcome;
      this.late = false;
      throw new CsiProxyError("partitionDisk was aborted.", { code: "ABORTED" });
    }
  }

  it("partitionDisk: the retry finds the partition and creates no second one", async () => {
    const host = new LateHost([rawDisk()]);
    const disk = new Disk({ host });
    expect((await failure(disk.partitionDisk({ diskNumber: 1 }))).code).toBe("ABORTED");
    host.steps.length = 0;
    expect(await disk.partitionDisk({ diskNumber: 1 })).toEqual({});
    expect(host.steps).toEqual(["Get-Disk", "Get-Partition"]);
    expect(host.disks.get(1)?.partitions).toEqual(["reserved", "basic"]);
  });
});

describe("the deadline of a method's one script", () => {
  /** A shell answering every disk script; each run takes a few ms and records its options. */
  function recordingShell() {
    const runs: { script: string; options: RunOptions | undefined }[] = [];
    const answer = (script: Script): unknown => {
      switch (script.name) {
        case "disk.get":
          return { number: 1, partitionStyle: 0, isOffline: false, isReadOnly: false, size: GiB };
        case "disk.partition":
          return { initialized: true, created: true };
        case "disk.setOnline":
          return { isOffline: false, isReadOnly: false, readOnlyRefusal: null };
        default:
          return undefined;
      }
    };
    const shell: PowerShell = {
      mode: "session",
      run: async <T>(script: Script, _params?: Params, options?: RunOptions): Promise<T> => {
        runs.push({ script: script.name, options });
        await new Promise((resolve) => setTimeout(resolve, 5));
        return answer(script) as T;
      },
      warmUp: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    return { shell, runs };
  }

  it("partitionDisk and setDiskState: one script each, with what is left of timeoutMs and the caller's signal", async () => {
    const { shell, runs } = recordingShell();
    const disk = new Disk({ host: createPowerShellDiskHost(shell) });
    const controller = new AbortController();
    const options = { signal: controller.signal, timeoutMs: 60_000 };
    await disk.partitionDisk({ diskNumber: 1 }, options);
    await disk.setDiskState({ diskNumber: 1, isOnline: true, clearReadOnly: true }, options);
    expect(runs.map((r) => r.script)).toEqual(["disk.partition", "disk.setOnline"]);
    for (const run of runs) {
      expect(run.options?.timeoutMs).toBeLessThanOrEqual(60_000);
      expect(run.options?.signal).toBe(controller.signal);
    }
  });

  it("a host method called on its own passes no deadline", async () => {
    const { shell, runs } = recordingShell();
    await createPowerShellDiskHost(shell).getDisk(1);
    expect(runs[0]?.options).toEqual({});
  });
});

/**
 * Aborts `controller` once every fault on file has been met (the hung cmdlet is running), or
 * gives up when `call` settles first; resolves with `call`'s error.
 */
async function abortWhenHung(
  sim: Simulator,
  controller: AbortController,
  call: Promise<unknown>,
): Promise<Error & { code: string }> {
  const progress = { settled: false };
  const outcome = failure(call).finally(() => (progress.settled = true));
  while (!progress.settled && !sim.faults().every((f) => f.times === 0)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  controller.abort();
  return outcome;
}

/** What a disk looks like without the GUIDs a run generates. */
function diskShape(sim: Simulator, number: number) {
  const state = sim.state();
  const found = state.disks.find((d) => d.number === number);
  if (found === undefined) throw new Error(`no disk ${number}`);
  const { guid: _disk, ...disk } = found;
  const partitions = state.partitions
    .filter((p) => p.diskNumber === number)
    .map(({ guid: _p, volume, ...p }) => ({
      ...p,
      fileSystem: state.volumes.find((v) => v.guid === volume)?.fileSystem ?? null,
    }));
  return { disk, partitions };
}

const hangMs = 600_000;

describeWithPwsh("Disk cancelled on the simulated host", (pwsh) => {
  const host = useSimHost(pwsh, "session");

  it("partitionDisk aborted in New-Partition keeps the initialised disk; the retry ends as an uncancelled call", async () => {
    const h = host();
    const scenario = { disks: [{ number: 1, busType: "File Backed Virtual" as const, size: GiB }] };
    h.reset(scenario);
    await h.disk.partitionDisk({ diskNumber: 1 });
    const uncancelled = diskShape(h.sim, 1);

    h.reset(scenario);
    h.sim.fault({ command: "New-Partition", action: "delay", delayMs: hangMs });
    const controller = new AbortController();
    const cancelled = h.disk.partitionDisk({ diskNumber: 1 }, { signal: controller.signal });
    expect((await abortWhenHung(h.sim, controller, cancelled)).code).toBe("ABORTED");
    // Initialize-Disk took effect before the cancellation: GPT with only the MSR.
    const partial = diskShape(h.sim, 1);
    expect(partial.disk.partitionStyle).toBe(2);
    expect(partial.partitions).toHaveLength(1);

    // The shell replaced the ended process and serves the next call.
    expect(await h.disk.getDiskState({ diskNumber: 1 })).toEqual({ isOnline: true });
    h.sim.clearFaults();
    h.sim.clearCalls();
    expect(await h.disk.partitionDisk({ diskNumber: 1 })).toEqual({});
    expect(h.commands()).not.toContain("Initialize-Disk");
    expect(diskShape(h.sim, 1)).toEqual(uncancelled);
  });

  it("setDiskState aborted while clearing read-only leaves the disk online; the retry only clears", async () => {
    const h = host();
    const scenario = {
      disks: [
        {
          number: 5,
          busType: "iSCSI" as const,
          offline: true,
          readOnly: true,
          offlineReason: "Policy" as const,
        },
      ],
    };
    const request = { diskNumber: 5, isOnline: true, clearReadOnly: true };
    h.reset(scenario);
    await h.disk.setDiskState(request);
    const uncancelled = diskShape(h.sim, 5);

    h.reset(scenario);
    h.sim.fault({
      command: "Set-Disk",
      match: { IsReadOnly: false },
      action: "delay",
      delayMs: hangMs,
    });
    const controller = new AbortController();
    const cancelled = h.disk.setDiskState(request, { signal: controller.signal });
    expect((await abortWhenHung(h.sim, controller, cancelled)).code).toBe("ABORTED");
    expect(diskShape(h.sim, 5).disk).toMatchObject({ isOffline: false, isReadOnly: true });

    h.sim.clearFaults();
    h.sim.clearCalls();
    expect(await h.disk.setDiskState(request)).toEqual({ isReadOnly: false });
    expect(
      h
        .calls()
        .filter((c) => c.command === "Set-Disk")
        .map((c) => c.parameters),
    ).toEqual([{ Number: 5, IsReadOnly: false }]);
    expect(diskShape(h.sim, 5)).toEqual(uncancelled);
  });

  it("a small timeoutMs on a hung listing ends in TIMEOUT and the next call is served", async () => {
    const h = host();
    h.reset({ disks: [{ number: 1, page83: { ascii: "Google  persistent-disk-1" } }] });
    h.sim.fault({ command: "Get-Disk", action: "delay", delayMs: hangMs });
    const error = await failure(
      h.disk.getDiskNumberByPage83({ page83: "Google  persistent-disk-1" }, { timeoutMs: 1_000 }),
    );
    expect(error.code).toBe("TIMEOUT");
    h.sim.clearFaults();
    expect(await h.disk.getDiskNumberByPage83({ page83: "Google  persistent-disk-1" })).toEqual({
      diskNumber: 1,
    });
  });
});
