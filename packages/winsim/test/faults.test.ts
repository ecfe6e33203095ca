import { createPowerShell, ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Simulator } from "../src/index.js";
import { failure, useHost } from "./host.js";

const GiB = 1024 * 1024 * 1024;

const diskNumber = ps("winsim.test.faultDisk")`
  param([uint32]$Number)
  (Get-Disk -Number $Number).Number
`;

/** Get-Disk with its written errors silenced, as a script probing for a disk might. */
const quietDisk = ps("winsim.test.quietDisk")`
  param([uint32]$Number)
  $disk = Get-Disk -Number $Number -ErrorAction SilentlyContinue
  if ($null -eq $disk) { 'silenced' } else { $disk.Number }
`;

const carve = ps("winsim.test.carve")`
  param([uint32]$Number)
  (New-Partition -DiskNumber $Number -Size 104857600).Offset
`;

describeWithPwsh("fault injection", (pwsh) => {
  const host = useHost(pwsh, { disks: [{ number: 1 }, { number: 2 }] });

  it("injects an error record a limited number of times", async () => {
    host.sim.fault({
      command: "Get-Disk",
      match: { Number: 1 },
      times: 2,
      action: "error",
      error: {
        message: "Access denied",
        errorId: "StorageWMI 40001",
        category: "PermissionDenied",
      },
    });
    for (let i = 0; i < 2; i++) {
      const error = await failure(host.shell.run(diskNumber, { Number: 1 }));
      // StatusCode defaults to the MI result of NativeErrorCode (Failed = 1), not the StorageWMI code.
      expect(error.record).toMatchObject({
        message: "Access denied",
        fullyQualifiedErrorId: "StorageWMI 40001,Get-Disk",
        category: "PermissionDenied",
        statusCode: 1,
        nativeErrorCode: "Failed",
        messageId: "StorageWMI 40001",
      });
    }
    expect(await host.shell.run(diskNumber, { Number: 2 })).toBe(2);
    expect(await host.shell.run(diskNumber, { Number: 1 })).toBe(1);
    expect(host.sim.calls().map((c) => c.outcome)).toEqual(["fault", "fault", "ok", "ok"]);
  });

  it("derives an injected CimException's StatusCode from its NativeErrorCode (MI_Result)", async () => {
    host.sim.fault({
      command: "Get-Disk",
      action: "error",
      error: {
        message: "Access denied",
        errorId: "StorageWMI 40001",
        nativeErrorCode: "AccessDenied",
      },
    });
    const error = await failure(host.shell.run(diskNumber, { Number: 1 }));
    expect(error.record).toMatchObject({ nativeErrorCode: "AccessDenied", statusCode: 2 });
  });

  it("reports a real StorageWMI failure as Windows does: MI result 1, the code only in MessageId (F7)", async () => {
    const initialize = ps("winsim.test.initializeTwice")`
      param([uint32]$Number)
      Initialize-Disk -Number $Number -PartitionStyle GPT
    `;
    host.sim.update((state) => {
      const disk = state.disks.find((d) => d.number === 2);
      if (disk) disk.partitionStyle = 2;
    });
    const error = await failure(host.shell.run(initialize, { Number: 2 }));
    expect(error.record).toMatchObject({
      fullyQualifiedErrorId: "StorageWMI 41001,Initialize-Disk",
      nativeErrorCode: "Failed",
      statusCode: 1,
      messageId: "StorageWMI 41001",
    });
  });

  it("runs normally after noise and garbage, which the transport ignores", async () => {
    host.sim.fault({
      command: "*",
      action: "noise",
      noise: ["warning", "progress", "host", "verbose", "information"],
    });
    expect(await host.shell.run(diskNumber, { Number: 1 })).toBe(1);
    host.sim.fault({ command: "Get-Disk", action: "garbage", text: '{"ok":true,"value":42}' });
    expect(await host.shell.run(diskNumber, { Number: 2 })).toBe(2);
  });

  it("kills the process mid-call; the next call gets a fresh one", async () => {
    host.sim.clearCalls();
    host.sim.fault({ command: "Get-Disk", action: "kill" });
    const error = await failure(host.shell.run(diskNumber, { Number: 1 }));
    expect(error.code).toBe("PROCESS_EXITED");
    expect(error.exitCode).toBe(137);
    expect(await host.shell.run(diskNumber, { Number: 1 })).toBe(1);
    const [killed, next] = host.sim.calls();
    expect(killed?.outcome).toBe("killed");
    expect(next?.pid).not.toBe(killed?.pid);
  });

  it("throws a terminating error fault, which -ErrorAction SilentlyContinue cannot hide", async () => {
    const error = { message: "Access denied", errorId: "StorageWMI 40001" };
    host.sim.fault({ command: "Get-Disk", action: "error", error });
    expect(await host.shell.run(quietDisk, { Number: 1 })).toBe("silenced");
    host.sim.fault({
      command: "Get-Disk",
      action: "error",
      error: { ...error, terminating: true },
    });
    const thrown = await failure(host.shell.run(quietDisk, { Number: 1 }));
    expect(thrown.record).toMatchObject({ message: "Access denied" });
    expect(thrown.record?.fullyQualifiedErrorId).toMatch(/^StorageWMI 40001,/);
  });

  it("reports what each fault has left, a fault met by a killed call included", async () => {
    host.sim.clearFaults();
    host.sim.fault({ command: "Get-Disk", match: { Number: 2 }, action: "kill" });
    host.sim.fault({ command: "Get-Disk", match: { Number: 9 }, times: 3, action: "kill" });
    expect(host.sim.faults().map((f) => f.times)).toEqual([1, 3]);
    expect((await failure(host.shell.run(diskNumber, { Number: 2 }))).code).toBe("PROCESS_EXITED");
    expect(host.sim.faults().map((f) => f.times)).toEqual([0, 3]);
    host.sim.clearFaults();
    expect(host.sim.faults()).toEqual([]);
  });

  it("clears faults", async () => {
    host.sim.fault({ command: "*", times: -1, action: "error" });
    host.sim.clearFaults();
    expect(await host.shell.run(diskNumber, { Number: 2 })).toBe(2);
  });
});

describeWithPwsh("concurrent processes", (pwsh) => {
  let sim: Simulator;
  const shell = { current: undefined as ReturnType<typeof createPowerShell> | undefined };
  beforeAll(async () => {
    sim = await Simulator.create({
      disks: [{ number: 1, size: 4 * GiB, partitionStyle: "GPT" }, { number: 2 }],
    });
    shell.current = createPowerShell(sim.shellOptions({ executable: pwsh, poolSize: 3 }));
  });
  afterAll(async () => {
    await shell.current?.close();
    await sim.dispose();
  });

  it("sleeps a delay outside the lock, and the call log shows the overlap", async () => {
    const run = shell.current!;
    await Promise.all([
      run.run(diskNumber, { Number: 2 }),
      run.run(diskNumber, { Number: 2 }),
      run.run(diskNumber, { Number: 2 }),
    ]);
    sim.clearCalls();
    sim.fault({ command: "Get-Disk", match: { Number: 1 }, action: "delay", delayMs: 8000 });
    const order: number[] = [];
    await Promise.all([
      run.run<number>(diskNumber, { Number: 1 }).then((n) => order.push(n)),
      new Promise((r) => setTimeout(r, 200)).then(() =>
        run.run<number>(diskNumber, { Number: 2 }).then((n) => order.push(n)),
      ),
    ]);
    expect(order).toEqual([2, 1]);
    const slow = sim.calls().find((c) => c.parameters.Number?.toString() === "1")!;
    const fast = sim.calls().find((c) => c.parameters.Number?.toString() === "2")!;
    expect(slow.end - slow.start).toBeGreaterThanOrEqual(8000);
    // The second call ran while the first was still sleeping: the delay held no lock.
    expect(fast.start).toBeGreaterThan(slow.start);
    expect(fast.start).toBeLessThan(slow.end);
  });

  it("serialises state changes across processes: no partition is lost or overlaps", async () => {
    const run = shell.current!;
    sim.clearCalls();
    const offsets = await Promise.all(
      Array.from({ length: 6 }, () => run.run<number>(carve, { Number: 1 })),
    );
    expect(new Set(offsets).size).toBe(6);
    const parts = sim.state().partitions.filter((p) => p.diskNumber === 1 && p.volume !== null);
    expect(parts.map((p) => p.offset).sort((a, b) => a - b)).toEqual(
      [...offsets].sort((a, b) => a - b),
    );
    expect(new Set(sim.calls().map((c) => c.pid)).size).toBeGreaterThan(1);
    expect(sim.calls().map((c) => c.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describeWithPwsh("spawn mode", (pwsh) => {
  const host = useHost(pwsh, {}, { mode: "spawn" });

  it("loads the simulator into every spawned process", async () => {
    expect(await host.shell.run(diskNumber, { Number: 0 })).toBe(0);
    const error = await failure(host.shell.run(diskNumber, { Number: 7 }));
    expect(error.record?.fullyQualifiedErrorId).toBe("CmdletizationQuery_NotFound_Number,Get-Disk");
    expect(error.mode).toBe("spawn");
  });
});
