// ScenarioSpec.cimLatencyMs: each CIM cmdlet waits the round trip a WMI provider call takes on
// Windows (issue #37), outside the lock. Only lower bounds are checked (a wait happened); how
// long runs take is the bench's business.
import { createPowerShell, ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { Simulator, type CallLogEntry } from "../src/index.js";

const reads = ps("winsim.test.latency.reads")`
  $null = Get-Disk
  $null = Get-CimInstance -ClassName Win32_BIOS
  $null = Get-Service -Name MSiSCSI
`;

const took = (calls: CallLogEntry[], command: string) => {
  const call = calls.find((c) => c.command === command);
  if (call === undefined) throw new Error(`no ${command} call`);
  return call.end - call.start;
};

describeWithPwsh("simulated CIM latency", (pwsh) => {
  it("makes CIM cmdlets wait the scenario's latency, per cmdlet where it says, and can be changed", async () => {
    const sim = await Simulator.create({
      cimLatencyMs: { defaultMs: 400, commands: { "Get-Service": 700 } },
    });
    const shell = createPowerShell(sim.shellOptions({ executable: pwsh }));
    try {
      await shell.run(reads);
      let calls = sim.calls();
      expect(took(calls, "Get-Disk")).toBeGreaterThanOrEqual(400);
      expect(took(calls, "Get-CimInstance")).toBeGreaterThanOrEqual(400);
      expect(took(calls, "Get-Service")).toBeGreaterThanOrEqual(700);
      sim.clearCalls();
      sim.setCimLatency({ commands: { "Get-Disk": 900 } });
      await shell.run(reads);
      calls = sim.calls();
      expect(took(calls, "Get-Disk")).toBeGreaterThanOrEqual(900);
      expect(() => sim.setCimLatency(-1)).toThrow(RangeError);
    } finally {
      await shell.close();
      await sim.dispose();
    }
  });
});
