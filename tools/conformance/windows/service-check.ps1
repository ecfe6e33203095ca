# Installs csi-proxy-server as the Windows service csiproxy (upstream's name), starts it, checks
# that its pipes exist while it runs and are gone once it stopped, and removes the service.
# Throws on any failure. Run by .github/workflows/windows.yml (server-pipes job) on a disposable
# runner, elevated. Windows PowerShell 5.1 syntax only.
[CmdletBinding()]
param(
    [Parameter(Mandatory = $true)][string]$Node,
    [Parameter(Mandatory = $true)][string]$Bin,
    [Parameter(Mandatory = $true)][string]$Policy,
    [Parameter(Mandatory = $true)][string]$LogFile
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
foreach ($file in @($Node, $Bin, $Policy)) {
    if (-not (Test-Path -LiteralPath $file -PathType Leaf)) { throw ('No file at ' + $file) }
}
$name = 'csiproxy'
$pipe = '\\.\pipe\csi-proxy-disk-v1'
if (Get-Service -Name $name -ErrorAction SilentlyContinue) { throw ('A service named ' + $name + ' already exists') }
$command = '"' + $Node + '" "' + $Bin + '" --windows-service --policy "' + $Policy + '"'
New-Service -Name $name -BinaryPathName $command -StartupType Manual -DisplayName 'csi-proxy-server (test)' | Out-Null
try {
    # Start-Service returns once the service reports RUNNING (the server printed its ready line).
    Start-Service -Name $name
    $running = (Get-Service -Name $name).Status.ToString()
    if ($running -ne 'Running') { throw ('The service is ' + $running + ', not Running') }
    if (-not (Test-Path -LiteralPath $pipe)) { throw ($pipe + ' does not exist while the service runs') }
    Stop-Service -Name $name
    $stopped = (Get-Service -Name $name).Status.ToString()
    if ($stopped -ne 'Stopped') { throw ('The service is ' + $stopped + ', not Stopped') }
    if (Test-Path -LiteralPath $pipe) { throw ($pipe + ' still exists after the service stopped') }
    Write-Output ('csiproxy: started, served ' + $pipe + ', stopped cleanly')
}
finally {
    if (Test-Path -LiteralPath $LogFile) { Get-Content -LiteralPath $LogFile -Tail 40 | Write-Host }
    # Win32_Service.Delete: Remove-Service needs PowerShell 6.
    $service = Get-CimInstance -ClassName Win32_Service -Filter "Name='csiproxy'"
    if ($service) { Invoke-CimMethod -InputObject $service -MethodName Delete | Out-Null }
}
