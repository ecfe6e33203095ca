// The Windows fixture's guards, run in the provisioned pwsh with the Windows cmdlets they call
// stubbed as functions (functions win over cmdlets): what a script does when a service is
// stopped, a disk has not arrived yet, or the route table has a NAT adapter. The stubs model the
// situations named in docs/guides/verifying-on-windows.md, not Windows itself; the scripts'
// syntax and cmdlet tables are checked by tools/script-check/test/setup-scripts.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPowerShell, ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, expect, it } from "vitest";

const windowsDir = fileURLToPath(new URL("../windows/", import.meta.url));
const common = join(windowsDir, "common.ps1");

// Teardown on a clean runner (the first push: nothing under the root, no hosts file entry) where
// MSiSCSI and WinTarget are stopped: the initiator and target cmdlets throw when called, as CIM
// calls against a stopped service may. Join-Path and Test-Path stand in for a C: drive.
const teardownStopped = ps("test.fixture.teardownStopped")`
param([string]$ScriptPath)
function Join-Path([string]$Path, [string]$ChildPath) { $Path.TrimEnd('\', '/') + '/' + $ChildPath }
function Test-Path([string]$LiteralPath) { $false }
$script:called = New-Object System.Collections.Generic.List[string]
function Get-Service([string]$Name, $ErrorAction) { [pscustomobject]@{ Name = $Name; Status = 'Stopped'; StartType = 'Manual' } }
function Get-IscsiSession { $script:called.Add('Get-IscsiSession'); throw 'The iSCSI initiator service is not running.' }
function Get-IscsiTargetPortal { $script:called.Add('Get-IscsiTargetPortal'); throw 'The iSCSI initiator service is not running.' }
function Get-IscsiServerTarget { $script:called.Add('Get-IscsiServerTarget'); throw 'WinTarget is not running.' }
function Get-IscsiVirtualDisk { $script:called.Add('Get-IscsiVirtualDisk'); throw 'WinTarget is not running.' }
function Get-SmbGlobalMapping { }
function Get-Partition { }
function Get-SmbShare { }
function Get-LocalUser { }
$lines = @(& $ScriptPath -Root 'C:\csiconf-no-such-root' -Tag '' -PortalAddress 'csiconf-portal')
[pscustomobject]@{ lines = $lines; called = $script:called.ToArray() }
`;

// Wait-ConformanceImageDisk against a disk image whose Number arrives late, whose disk Get-Disk
// does not list yet, or whose disk is not file-backed (disk 0, the OS disk, is SAS/NVMe/...).
const waitDisk = ps("test.fixture.waitDisk")`
param([string]$Common, [int]$NullTimes, [int]$UnlistedTimes, [int]$Number, [int]$BusType)
. $Common
$script:asked = 0
function Get-DiskImage([string]$ImagePath) {
    $script:asked++
    if ($script:asked -le $NullTimes) { return [pscustomobject]@{ Attached = $true; Number = $null } }
    [pscustomobject]@{ Attached = $true; Number = [uint32]$Number }
}
$script:listed = 0
function Get-Disk([uint32]$Number, $ErrorAction) {
    $script:listed++
    if ($script:listed -le $UnlistedTimes) { Write-Error 'No MSFT_Disk objects found' -ErrorAction $ErrorAction; return }
    [pscustomobject]@{ Number = $Number; CimInstanceProperties = @{ BusType = [pscustomobject]@{ Value = [uint16]$BusType } } }
}
function Start-Sleep { }
[pscustomobject]@{ number = (Wait-ConformanceImageDisk -ImagePath 'C:\csi-conformance\disks\csiconf-1.vhdx'); asked = $script:asked }
`;

// Get-ConformanceDefaultRoute with a runner-like table: Ethernet (index 6) and vEthernet (nat)
// (index 12, listed first, no default route), an IPv6 default route on a lower metric, and an
// APIPA address on the Ethernet interface.
const defaultRoute = ps("test.fixture.defaultRoute")`
param([string]$Common)
. $Common
function New-Cim([hashtable]$Raw, [hashtable]$Shown) {
    $props = @{}
    foreach ($k in $Raw.Keys) { $props[$k] = [pscustomobject]@{ Value = $Raw[$k] } }
    $o = [pscustomobject]$Shown
    $o | Add-Member -NotePropertyName CimInstanceProperties -NotePropertyValue $props
    $o
}
function Get-CimInstance([string]$Namespace, [string]$ClassName) {
    switch ($ClassName) {
        'MSFT_NetIPInterface' {
            New-Cim @{ AddressFamily = 2 } @{ InterfaceIndex = 12; InterfaceMetric = 5000; AddressFamily = 'IPv4' }
            New-Cim @{ AddressFamily = 2 } @{ InterfaceIndex = 6; InterfaceMetric = 15; AddressFamily = 'IPv4' }
            New-Cim @{ AddressFamily = 23 } @{ InterfaceIndex = 6; InterfaceMetric = 1; AddressFamily = 'IPv6' }
        }
        'MSFT_NetRoute' {
            New-Cim @{} @{ DestinationPrefix = '::/0'; InterfaceIndex = 6; RouteMetric = 0; InterfaceAlias = 'Ethernet' }
            New-Cim @{} @{ DestinationPrefix = '172.20.0.0/20'; InterfaceIndex = 12; RouteMetric = 0; InterfaceAlias = 'vEthernet (nat)' }
            New-Cim @{} @{ DestinationPrefix = '0.0.0.0/0'; InterfaceIndex = 6; RouteMetric = 0; InterfaceAlias = 'Ethernet' }
        }
        'MSFT_NetIPAddress' {
            New-Cim @{} @{ InterfaceIndex = 12; IPAddress = '172.20.0.1' }
            New-Cim @{} @{ InterfaceIndex = 6; IPAddress = 'fe80::1' }
            New-Cim @{} @{ InterfaceIndex = 6; IPAddress = '169.254.10.10' }
            New-Cim @{} @{ InterfaceIndex = 6; IPAddress = '10.1.0.4' }
        }
    }
}
Get-ConformanceDefaultRoute
`;

const hostsEntry = ps("test.fixture.hostsEntry")`
param([string]$Common, [string]$HostsFile)
. $Common
Set-ConformanceHostsEntry -HostsFile $HostsFile -Name 'csiconf-portal' -Address '10.1.0.4'
`;

describeWithPwsh("the Windows fixture scripts (windows/*.ps1) under stubs", (pwsh) => {
  const shell = createPowerShell({ executable: pwsh });
  afterAll(() => shell.close());

  it("teardown skips the iSCSI initiator and target steps when their services are stopped", async () => {
    const out = await shell.run<{ lines: string[]; called: string[] | null }>(teardownStopped, {
      ScriptPath: join(windowsDir, "teardown.ps1"),
    });
    expect(out.called ?? []).toEqual([]);
    expect(out.lines).toEqual(
      expect.arrayContaining([
        "skip  iSCSI sessions to the conformance targets: MSiSCSI is not running",
        "skip  iSCSI portal: MSiSCSI is not running",
        "skip  iSCSI targets and virtual disks: WinTarget is not running",
      ]),
    );
    expect(out.lines.filter((l) => l.startsWith("FAIL"))).toEqual([]);
  });

  it("waits for a mounted image's disk number instead of reading $null as disk 0", async () => {
    const out = await shell.run<{ number: number; asked: number }>(waitDisk, {
      Common: common,
      NullTimes: 3,
      UnlistedTimes: 2,
      Number: 4,
      BusType: 15,
    });
    expect(out).toEqual({ number: 4, asked: 6 });
  });

  it("refuses a disk that is not file-backed, and gives up on a disk that never arrives", async () => {
    await expect(
      shell.run(waitDisk, {
        Common: common,
        NullTimes: 0,
        UnlistedTimes: 0,
        Number: 0,
        BusType: 10,
      }),
    ).rejects.toThrow(/not 15 \(File Backed Virtual\): refusing/);
    await expect(
      shell.run(waitDisk, {
        Common: common,
        NullTimes: 1000,
        UnlistedTimes: 0,
        Number: 4,
        BusType: 15,
      }),
    ).rejects.toThrow(/did not appear within 60 attempts/);
  });

  it("takes the portal address from the IPv4 default route, not the NAT adapter or APIPA", async () => {
    const out = await shell.run<{ address: string; interfaceAlias: string; metric: number }>(
      defaultRoute,
      { Common: common },
    );
    expect(out).toEqual({ address: "10.1.0.4", interfaceAlias: "Ethernet", metric: 15 });
  });

  it("maps the portal name in the hosts file once, keeping every other line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csiconf-hosts-"));
    try {
      const hostsFile = join(dir, "hosts");
      writeFileSync(
        hostsFile,
        "# comment csiconf-portal\n127.0.0.1 localhost\n10.9.9.9 csiconf-portal\n",
      );
      await shell.run(hostsEntry, { Common: common, HostsFile: hostsFile });
      await shell.run(hostsEntry, { Common: common, HostsFile: hostsFile });
      expect(readFileSync(hostsFile, "utf8").trim().split(/\r?\n/)).toEqual([
        "# comment csiconf-portal",
        "127.0.0.1 localhost",
        "10.1.0.4 csiconf-portal",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
