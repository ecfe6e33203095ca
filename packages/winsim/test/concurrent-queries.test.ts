// Queries run at once, changes one at a time (docs/design/winsim.md, "State"): while another
// process holds the simulator's lock, a Get- cmdlet is answered from a snapshot of the state and a
// change waits for the lock. Before, every cmdlet held the lock through its work, so queries from
// several processes ran one after another and never met a change half way.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPowerShell, ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { scenarios, Simulator } from "../src/index.js";

// Takes the module's lock (a private function, run in the module's scope), says so, and holds it
// until the release file appears.
const holdLock = ps("winsim.test.holdLock")`
param([string]$Held, [string]$Release)
& (Get-Module WinSim) {
    param($Held, $Release)
    $lock = Enter-WinSimLock
    try {
        [System.IO.File]::WriteAllText($Held, 'held')
        $until = [DateTime]::UtcNow.AddSeconds(120)
        while (-not [System.IO.File]::Exists($Release) -and [DateTime]::UtcNow -lt $until) { Start-Sleep -Milliseconds 20 }
    } finally { Exit-WinSimLock $lock }
} $Held $Release
`;

const query = ps("winsim.test.query")`@(Get-Disk | Select-Object -ExpandProperty Number)`;
const change = ps("winsim.test.change")`Set-Disk -Number 1 -IsOffline $true`;

describeWithPwsh("queries and changes across processes", (pwsh) => {
  it("answers a query while another process holds the lock, and keeps a change waiting for it", async () => {
    const sim = await Simulator.create(scenarios.demoNode());
    const shell = createPowerShell(sim.shellOptions({ executable: pwsh, poolSize: 3 }));
    const dir = mkdtempSync(join(tmpdir(), "winsim-lock-"));
    const held = join(dir, "held");
    const release = join(dir, "release");
    try {
      const holder = shell.run(holdLock, { Held: held, Release: release });
      await expect.poll(() => existsSync(held), { timeout: 60_000 }).toBe(true);
      let changed = false;
      const changing = shell.run(change).then(() => (changed = true));
      // Answered from the snapshot while the lock is held (before, this waited for the release).
      const disks = await shell.run<number[]>(query);
      expect(disks).toContain(1);
      expect(changed).toBe(false);
      writeFileSync(release, "");
      await holder;
      await changing;
      expect(sim.calls().map((c) => c.command)).toEqual(["Get-Disk", "Set-Disk"]);
    } finally {
      await shell.close();
      await sim.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
