import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { ServiceStatus } from "../src/index.js";
import { failure, startSimulator, useSimHost } from "./sim-helpers.js";

// Upstream's system integration tests (csi-proxy-api.md §8), on the default simulated host.
const externalStop = ps("system.test.externalStop")`
  param([string]$Name)
  Stop-Service -Name $Name
`;

const upstreamGetService = ps("system.test.upstreamGetService")`
  param([string]$Name)
  Get-Service -Name $Name | Select-Object DisplayName, Status, StartType | ConvertTo-Json
`;

const upstreamStatus = ps("system.test.upstreamStatus")`
  param([string]$Name)
  [string](Get-Service -Name $Name).Status
`;

describeWithPwsh("upstream system scenarios on the simulator (session)", (pwsh) => {
  const host = useSimHost(pwsh, {});

  it("GetService: MSiSCSI after Stop-Service equals Get-Service's JSON numerically, STOPPED", async () => {
    await host.shell.run(externalStop, { Name: "MSiSCSI" });
    const json = JSON.parse(
      await host.shell.run<string>(upstreamGetService, { Name: "MSiSCSI" }),
    ) as {
      DisplayName: string;
      Status: number;
      StartType: number;
    };
    const response = await host.system.getService({ name: "MSiSCSI" });
    expect(response.status).toBe(json.Status);
    expect(response.startType).toBe(json.StartType);
    expect(response.displayName).toBe(json.DisplayName);
    expect(response.status).toBe(ServiceStatus.STOPPED);
  });

  it("Stop/Start Service: MSiSCSI runs after startService and is stopped after stopService", async () => {
    await host.system.startService({ name: "MSiSCSI" });
    expect(await host.shell.run(upstreamStatus, { Name: "MSiSCSI" })).toBe("Running");
    await host.system.stopService({ name: "MSiSCSI" });
    expect(await host.shell.run(upstreamStatus, { Name: "MSiSCSI" })).toBe("Stopped");
  });

  it("refuses to stop the default Workstation service while Remote Desktop Configuration runs", async () => {
    const error = await failure(host.system.stopService({ name: "LanmanWorkstation" }));
    expect(error.code).toBe("FAILED_PRECONDITION");
  });
});

// Spawn mode runs each call in a new process (1–3 s each): one short flow proves the scripts work there.
describeWithPwsh("system on the simulator (spawn mode)", (pwsh) => {
  it(
    "reads the serial, starts and stops MSiSCSI, maps a miss to NOT_FOUND",
    { timeout: 120_000 },
    async () => {
      const { sim, shell, system } = await startSimulator(pwsh, {}, "spawn");
      try {
        expect(shell.mode).toBe("spawn");
        expect(await system.getBiosSerialNumber()).toEqual({
          serialNumber: "0000-0012-6148-5623-3371-0823-24",
        });
        await system.startService({ name: "MSiSCSI" });
        await system.stopService({ name: "MSiSCSI", force: true });
        expect(await system.getService({ name: "MSiSCSI" })).toMatchObject({
          statusName: "STOPPED",
        });
        expect((await failure(system.getService({ name: "Nope" }))).code).toBe("NOT_FOUND");
        expect(new Set(sim.calls().map((c) => c.pid)).size).toBeGreaterThan(3);
      } finally {
        await shell.close();
        await sim.dispose();
      }
    },
  );
});
