import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { winsimModulePath } from "@csi-proxy/winsim";
import { afterAll, expect, it } from "vitest";
import { checkSimulatorModule } from "../src/index.js";

// The module as the published package locates it (its public `winsimModulePath`).
const winsim = winsimModulePath;

// A module that gets Get-Disk wrong in every way the check knows, and Update-HostStorageCache right.
const fakeModule = String.raw`
function Get-Disk {
    [CmdletBinding(DefaultParameterSetName = 'ByName', SupportsShouldProcess)]
    param(
        [Parameter(ParameterSetName = 'ByNumber', Mandatory, Position = 0)][uint32]$Number,
        [Parameter(ParameterSetName = 'ByUniqueId')][Parameter(ParameterSetName = 'ByName')][Alias('Id', 'Uid')][string[]]$UniqueId,
        [Parameter(ParameterSetName = 'ByName', Position = 0)][string[]]$FriendlyName,
        [Parameter(ParameterSetName = 'ByName')][string[]]$Color,
        [Parameter(ParameterSetName = 'ByDisk', ValueFromPipeline)][psobject]$Partition,
        [int]$ThrottleLimit
    )
}
function Update-HostStorageCache {
    [CmdletBinding(PositionalBinding = $false)]
    param([Alias('Session')][object[]]$CimSession, [int]$ThrottleLimit, [switch]$AsJob)
}
Export-ModuleMember -Function Get-Disk, Update-HostStorageCache
`;

describeWithPwsh("the simulator declares the real cmdlets' parameters", (pwsh) => {
  const shell = createPowerShell({ executable: pwsh });
  const dir = mkdtempSync(join(tmpdir(), "script-check-"));
  afterAll(async () => {
    await shell.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the check reports each kind of deviation on a crafted module", async () => {
    const path = join(dir, "Fake.psm1");
    writeFileSync(path, fakeModule);
    const report = await checkSimulatorModule(shell, path);
    expect(report.checked).toEqual(["Get-Disk", "Update-HostStorageCache"]);
    expect(report.notDefined).toContain("Get-Volume");
    const kinds = report.problems.filter((p) => p.command === "Update-HostStorageCache");
    expect(kinds).toEqual([]);
    const seen = report.problems.map((p) => `${p.kind} ${p.parameter ?? ""}`.trim());
    for (const want of [
      "missing-parameter Path",
      "missing-parameter AsJob",
      "missing-alias Number",
      "extra-alias UniqueId",
      "extra-parameter Color",
      "extra-parameter WhatIf",
      "extra-parameter Confirm",
      "type Number",
      "missing-set",
      "extra-set",
      "default-set",
      "mandatory Number",
      "pipeline Number",
      "set-membership UniqueId",
      "position-order",
    ]) {
      expect(seen, want).toContain(want);
    }
  });

  it.skipIf(!existsSync(winsim))(
    "@csi-proxy/winsim's module/WinSim.psd1 matches the table",
    async () => {
      const report = await checkSimulatorModule(shell, winsim);
      console.info(
        `WinSim defines ${report.checked.join(", ")}; not yet: ${report.notDefined.join(", ")}`,
      );
      expect(report.problems).toEqual([]);
    },
  );
});
