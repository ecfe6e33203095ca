# Opens a host named pipe from inside a process-isolated Windows container, mapped in under
# another name (a named-pipe mount, as a hostPath pipe volume becomes), as the container user
# given, and prints what happened as one JSON line:
# {"user":"...","outcome":"connected"|"refused"|"error","detail":"..."}.
# Run by packages/server/test-windows/container-pipes.test.ts (windows.yml, server-pipes job): it is
# the evidence for docs/windows-deployment.md's table of which container users a pipe admits.
# Windows PowerShell 5.1 syntax only.
[CmdletBinding()]
param(
    [Parameter(Mandatory = $true)][string]$HostPipe,
    [Parameter(Mandatory = $true)][string]$ContainerPipe,
    [Parameter(Mandatory = $true)][ValidateSet('ContainerUser', 'ContainerAdministrator')][string]$User
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
foreach ($name in @($HostPipe, $ContainerPipe)) {
    if ($name -notmatch '^csi-proxy-[a-z0-9-]{1,80}$') { throw ('A pipe name must be csi-proxy-..., got: ' + $name) }
}
$found = Get-Command docker -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
if ($null -eq $found) { throw 'docker is not on PATH: the probe needs Windows containers' }
# An executable, not a cmdlet: called by its path.
$docker = $found.Source
# Process isolation needs the image of the host's own build.
$build = [Environment]::OSVersion.Version.Build
$tags = @{ 20348 = 'ltsc2022'; 26100 = 'ltsc2025' }
if (-not $tags.ContainsKey($build)) { throw ('No nanoserver tag known for Windows build ' + $build) }
$image = 'mcr.microsoft.com/windows/nanoserver:' + $tags[$build]
$mount = 'type=npipe,source=\\.\pipe\' + $HostPipe + ',target=\\.\pipe\' + $ContainerPipe
# cmd's redirection opens the pipe for writing; "Access is denied." if the DACL refuses the user.
$inside = 'echo probe>\\.\pipe\' + $ContainerPipe
$previous = $ErrorActionPreference
$ErrorActionPreference = 'Continue'
$said = & $docker run --rm --isolation process --user $User --mount $mount $image cmd /c $inside 2>&1 | Out-String
$code = $LASTEXITCODE
$ErrorActionPreference = $previous
$outcome = 'error'
if ($code -eq 0) { $outcome = 'connected' }
elseif ($said -match 'Access is denied') { $outcome = 'refused' }
$result = New-Object psobject -Property @{ user = $User; outcome = $outcome; detail = ([string]$said).Trim() }
Write-Output ($result | ConvertTo-Json -Compress)
