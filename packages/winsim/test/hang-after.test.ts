import { createPowerShell, isCsiProxyError, ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Simulator } from "../src/index.js";

const carve = ps("winsim.test.hangAfterCarve")`
  param([uint32]$Number)
  (New-Partition -DiskNumber $Number -Size 104857600).Offset
`;

describeWithPwsh("the hangAfter fault: the change is made, the caller never hears", (pwsh) => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await Simulator.create({ disks: [{ number: 1, partitionStyle: "GPT" }] });
  });
  afterAll(() => sim.dispose());

  it("changes the state, logs the call, then hangs until the caller gives up", async () => {
    const shell = createPowerShell(sim.shellOptions({ executable: pwsh }));
    try {
      const before = sim.state().partitions.filter((p) => p.diskNumber === 1).length;
      sim.fault({ command: "New-Partition", action: "hangAfter", delayMs: 600_000 });
      const controller = new AbortController();
      const call = shell.run(carve, { Number: 1 }, { signal: controller.signal });
      // Give up only once the cmdlet has logged its call, however slow the process start was.
      while (!sim.calls().some((c) => c.command === "New-Partition")) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      controller.abort();
      const error = await call.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isCsiProxyError(error) && error.code).toBe("ABORTED");
      // Unlike `delay`, the cmdlet acted before it hung: a retry must find its work done.
      expect(sim.state().partitions.filter((p) => p.diskNumber === 1)).toHaveLength(before + 1);
      expect(sim.calls().map((c) => [c.command, c.outcome])).toContainEqual([
        "New-Partition",
        "ok",
      ]);
      expect(await shell.run<number>(carve, { Number: 1 })).toBeGreaterThan(0);
    } finally {
      await shell.close();
    }
  });
});
