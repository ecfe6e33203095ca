# Prepares a disposable runner before the conformance suite starts: the iSCSI Target Server
# feature (1 to 3 minutes to install), loopback logins allowed, WinTarget restarted and the
# iSCSI initiator service started. It runs as a workflow step of its own (shell: powershell in
# .github/workflows/windows.yml) so the slow install is not inside a vitest hook; setup.ps1 then
# finds everything in place and teardown leaves it. Windows PowerShell 5.1 syntax only.
[CmdletBinding()]
param()
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
. (Join-Path $PSScriptRoot 'common.ps1')
$before = Initialize-ConformanceIscsi
Write-Output ('iSCSI Target Server installed before: ' + $before.featureWasInstalled + '; MSiSCSI running before: ' + $before.initiatorWasRunning)
foreach ($name in @('WinTarget', 'MSiSCSI')) {
    if (-not (Test-ConformanceServiceRunning -Name $name)) { throw ($name + ' is not running after provisioning.') }
}
Write-Output 'WinTarget and MSiSCSI are running.'
