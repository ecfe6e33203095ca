import { createPowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, expect, it } from "vitest";
import { checkScript, type ScriptProblem } from "../src/index.js";

function summary(problems: readonly ScriptProblem[]): string[] {
  return problems.map((p) =>
    [p.kind, p.command, p.parameter, p.line].filter((x) => x !== undefined).join(" "),
  );
}

describeWithPwsh("checkScript holds scripts to the real cmdlets", (pwsh) => {
  const shell = createPowerShell({ executable: pwsh });
  afterAll(() => shell.close());

  it("accepts pipelines, prefixes, aliases, common and CDXML parameters", async () => {
    const text = [
      "param([uint32]$n, [string]$id, [string]$path)",
      "Get-Disk -Number $n | Get-Partition | Get-Volume",
      "Get-Disk -num $n -ErrorAction Stop -ea Stop -CimSession $null -Session $null -AsJob",
      "Get-Disk -DeviceId 1; Get-Partition -DiskPath 'x'; Get-Volume -Id 'y' -FullName 'z'",
      "Get-Volume -UniqueId $id | Get-Partition | Add-PartitionAccessPath -AccessPath $path -Confirm:$false -wi",
      "Format-Volume -DriveLetter D -FileSystem NTFS -cf:$false -ClusterSize 4096",
      "Get-CimInstance -ClassName Win32_BIOS -CN . | Select-Object -ExpandProperty SerialNumber",
      "Stop-Service -Name msiscsi -Force -WhatIf; Start-Service -ServiceName msiscsi",
      "Microsoft.PowerShell.Utility\\ConvertTo-Json -InputObject @(1) -Depth 4 -Compress",
      "@(1, 2) | % { $_ } | ? { $_ -gt 1 } | where { $_ } | Sort-Object | Measure-Object -Sum",
      "function Invoke-Local { param($x) $x }",
      "Invoke-Local -Anything 1",
      "& $sb -Whatever 1",
      "Write-Output -NoEnumerate @(1)",
      "$env:PSModulePath = ''",
      "$o = @{ FileSystem = 'NTFS'; Confirm = $false }; $o['Force'] = $true; $o.Full = $true",
      "Get-Volume | Format-Volume @o",
    ].join("\n");
    expect(await checkScript(shell, text)).toEqual([]);
  });

  it("catches unknown commands and parameters, ambiguity, and a -Confirm the cmdlet lacks", async () => {
    const text = [
      "Get-Disk -Numbr 1",
      "Get-Partition -Disk $d -D 1",
      "Get-Disk -Number 1 -Confirm:$false",
      "Get-PhysicalDisk",
      "Storage\\Get-Service",
      "mountvol.exe C:\\ /L",
      "Set-Disk -Number 1 @p",
      "Get-Disk -O 1",
      "$q = [ordered]@{ Numbr = 1 }; Get-Disk @q",
      "$r = @{}; $r[$name] = 1; Get-Disk @r",
    ].join("\n");
    expect(summary(await checkScript(shell, text))).toEqual([
      "unknown-parameter Get-Disk Numbr 1",
      "ambiguous-parameter Get-Partition D 2",
      "unknown-parameter Get-Disk Confirm 3",
      "unknown-command Get-PhysicalDisk 4",
      "unknown-command Storage\\Get-Service 5",
      "unknown-command mountvol.exe 6",
      "splatted-parameters Set-Disk 7",
      "ambiguous-parameter Get-Disk O 8",
      "unknown-parameter Get-Disk Numbr 9",
      "splatted-parameters Get-Disk 10",
    ]);
  });

  it("catches every way of reading the environment", async () => {
    const text = [
      "$a = $env:FOO",
      "$b = ${env:BAR}",
      "$c = [Environment]::GetEnvironmentVariable('x')",
      "$d = [System.Environment]::GetEnvironmentVariables()",
      "$e = Get-Item env:FOO",
      "Get-ChildItem -Path 'Env:'",
      '$f = "user $env:USERNAME"',
    ].join("\n");
    const problems = await checkScript(shell, text);
    expect(problems.map((p) => `${p.kind} ${p.line}`)).toEqual([
      "env-read 1",
      "env-read 2",
      "env-read 3",
      "env-read 4",
      "env-read 5",
      "env-read 6",
      "env-read 7",
    ]);
  });

  it("catches PowerShell-7-only syntax, variables and parameters", async () => {
    const text = [
      "$a = $b ?? 1",
      "$c = $d ? 1 : 2",
      "Get-Disk && Get-Volume",
      "ConvertTo-Json -InputObject 1 -AsArray",
      "@(1) | ForEach-Object -Parallel { $_ }",
      "ConvertFrom-Json -InputObject '{}' -AsHash",
      "Set-Content -Path x -Value y -Encoding utf8NoBOM",
      "if ($IsLinux) { 1 }",
      "Get-Disk -ProgressAction SilentlyContinue",
      "function f { process { 1 } clean { 2 } }",
      "@('a') | Join-String",
    ].join("\n");
    const problems = await checkScript(shell, text);
    expect(summary(problems)).toEqual([
      "ps7-syntax 1",
      "ps7-syntax 2",
      "ps7-syntax 3",
      "ps7-syntax 3",
      "ps7-parameter ConvertTo-Json AsArray 4",
      "ps7-parameter ForEach-Object Parallel 5",
      "ps7-parameter ConvertFrom-Json AsHash 6",
      "ps7-parameter Set-Content Encoding 7",
      "ps7-variable 8",
      "ps7-parameter Get-Disk ProgressAction 9",
      "ps7-syntax 10",
      "unknown-command Join-String 11",
    ]);
    expect(problems.at(-1)?.detail).toBe("Join-String exists only in PowerShell 6/7");
  });
});
