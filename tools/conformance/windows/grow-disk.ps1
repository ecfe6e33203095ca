# Grows a blank disk made by setup.ps1 (the storage array growing a LUN) and prints its disk
# number afterwards. diskpart's `expand vdisk` works only on a detached virtual disk
# (https://learn.microsoft.com/windows-server/administration/windows-commands/expand-vdisk),
# so the file is detached, expanded and attached again; Windows may give it a new number, and
# its volume keeps its GUID and folder mount points. Windows PowerShell 5.1 syntax only.
[CmdletBinding()]
param(
    [Parameter(Mandatory = $true)][string]$Root,
    [Parameter(Mandatory = $true)][string]$Path,
    [Parameter(Mandatory = $true)][uint64]$Bytes
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
. (Join-Path $PSScriptRoot 'common.ps1')
Assert-ConformanceNames -Root $Root -Tag ''
if (-not $Path.StartsWith($Root + '\disks\', [System.StringComparison]::OrdinalIgnoreCase) -or $Path -match '"') {
    throw ('Not a disk made by setup.ps1: ' + $Path)
}
$megabytes = [uint64][math]::Ceiling($Bytes / 1MB)
Dismount-DiskImage -ImagePath $Path | Out-Null
Invoke-ConformanceDiskpart -Root $Root -Lines @(('select vdisk file="' + $Path + '"'), ('expand vdisk maximum=' + $megabytes))
Mount-DiskImage -ImagePath $Path -Access ReadWrite -NoDriveLetter | Out-Null
Wait-ConformanceImageDisk -ImagePath $Path
