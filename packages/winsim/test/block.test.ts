import { createPowerShell, isCsiProxyError, ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Simulator } from "../src/index.js";

const carve = ps("winsim.test.blockCarve")`
  param([uint32]$Number)
  (New-Partition -DiskNumber $Number -Size 104857600).Offset
`;

const settle = (call: Promise<unknown>) =>
  call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describeWithPwsh("sim.block: a fault held until the test releases it", (pwsh) => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await Simulator.create({ disks: [{ number: 1, partitionStyle: "GPT" }] });
  });
  afterAll(() => sim.dispose());
  const partitions = () => sim.state().partitions.filter((p) => p.diskNumber === 1).length;

  it("delay: met before the cmdlet acts; the call goes on once released", async () => {
    const shell = createPowerShell(sim.shellOptions({ executable: pwsh }));
    try {
      const before = partitions();
      const gate = sim.block({ command: "New-Partition" });
      const call = settle(shell.run<number>(carve, { Number: 1 }));
      await gate.met();
      // Held before acting: nothing changed, nothing logged yet.
      expect(partitions()).toBe(before);
      expect(sim.calls().some((c) => c.command === "New-Partition")).toBe(false);
      gate.release();
      expect(await call).toMatchObject({ value: expect.any(Number) as unknown });
      expect(partitions()).toBe(before + 1);
    } finally {
      await shell.close();
    }
  });

  it("hangAfter: met once the cmdlet acted and logged; a cancelled caller never hears", async () => {
    const shell = createPowerShell(sim.shellOptions({ executable: pwsh }));
    try {
      const before = partitions();
      const gate = sim.block({ command: "New-Partition", action: "hangAfter" });
      const controller = new AbortController();
      const call = settle(shell.run(carve, { Number: 1 }, { signal: controller.signal }));
      await gate.met();
      expect(partitions()).toBe(before + 1);
      expect(sim.calls().at(-1)).toMatchObject({ command: "New-Partition", outcome: "ok" });
      controller.abort();
      const { error } = (await call) as { error?: unknown };
      expect(isCsiProxyError(error) && error.code).toBe("ABORTED");
      gate.release();
    } finally {
      await shell.close();
    }
  });

  it("met() rejects when the host is disposed before any call met the fault", async () => {
    const other = await Simulator.create({ systemDisk: false });
    const gate = other.block({ command: "Get-Disk" });
    const met = gate.met();
    await other.dispose();
    await expect(met).rejects.toThrow(/disposed before the fault was met/);
  });
});
