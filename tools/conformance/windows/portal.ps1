# Maps a host name to this machine's default-route IPv4 in the hosts file and prints the name, so
# the suite registers its iSCSI portal by name, as a driver does, at an address the iSCSI Target
# Server listens on. Not localhost: the target's portals are the network card's addresses, and
# upstream logs in through the Ethernet IPv4 (kubernetes-csi/csi-proxy
# integrationtests/iscsi_ps_scripts.go); pip's hosted-agent script New-RAMDisk.ps1: "Must use
# external-facing IP address, otherwise New-IscsiTargetPortal is unable to connect". Not the
# first non-loopback address either: the runner image also has a vEthernet (nat) adapter (see
# Get-ConformanceDefaultRoute in common.ps1). Run by .github/workflows/windows.yml
# (shell: powershell). Windows PowerShell 5.1 syntax only.
[CmdletBinding()]
param(
    [Parameter(Mandatory = $true)][string]$Name
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
. (Join-Path $PSScriptRoot 'common.ps1')
if ($Name -notmatch '^csiconf[a-z0-9-]{0,40}$') { throw ('Name must be csiconf followed by lower-case letters, digits or dashes, got: ' + $Name) }

$route = Get-ConformanceDefaultRoute
$ip = $route.address
Set-ConformanceHostsEntry -HostsFile (Get-ConformanceHostsFile) -Name $Name -Address $ip
# The DNS client rereads the hosts file when it changes; give it a few seconds.
$resolved = @()
for ($attempt = 1; $attempt -le 10 -and $resolved -notcontains $ip; $attempt++) {
    if ($attempt -gt 1) { Start-Sleep -Seconds 1 }
    try { $resolved = @([System.Net.Dns]::GetHostAddresses($Name) | ForEach-Object { $_.ToString() }) } catch { $resolved = @() }
}
if ($resolved -notcontains $ip) { throw ($Name + ' resolves to "' + ($resolved -join ', ') + '", not ' + $ip) }
Write-Host ($Name + ' -> ' + $ip + ' (interface ' + $route.interfaceAlias + ', metric ' + $route.metric + ')')
Write-Output $Name
