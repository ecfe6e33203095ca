# Removes what setup.ps1 made (objects named csiconf<Tag>; with -Tag '' every csiconf* object),
# in the order that keeps data safe: SMB mappings, iSCSI sessions and portal, folder mounts
# under Root, then the virtual disks, targets, share, user and files. Each step runs even when
# an earlier one failed; running it twice, or after a failed setup, is fine. Prints one line per
# step. Windows PowerShell 5.1 syntax only (checked by tools/script-check).
[CmdletBinding()]
param(
    [Parameter(Mandatory = $true)][string]$Root,
    [string]$Tag = '',
    [string]$PortalAddress = '',
    [string]$Service = '',
    [switch]$UninstallFeature,
    [switch]$StopInitiator
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
. (Join-Path $PSScriptRoot 'common.ps1')
Assert-ConformanceNames -Root $Root -Tag $Tag
$pattern = 'csiconf' + $Tag + '*'
$failures = New-Object System.Collections.Generic.List[string]

# A step's body returns nothing when it did its work, or the reason it had nothing to do.
function Invoke-Step([string]$Name, [scriptblock]$Body) {
    try {
        $skipped = @(& $Body | Where-Object { $_ -is [string] })
        if ($skipped.Count -gt 0) { Write-Output ('skip  ' + $Name + ': ' + ($skipped -join ' ')) }
        else { Write-Output ('ok    ' + $Name) }
    } catch {
        $failures.Add($Name + ': ' + $_.Exception.Message)
        Write-Output ('FAIL  ' + $Name + ': ' + $_.Exception.Message)
    }
}

Invoke-Step 'SMB global mappings to the conformance share' {
    Get-SmbGlobalMapping | Where-Object { ($_.RemotePath -split '\\')[3] -like $pattern } | ForEach-Object {
        Remove-SmbGlobalMapping -InputObject $_ -Force
    }
}
# The initiator's cmdlets need MSiSCSI, which is stopped on a fresh Windows Server and after
# -StopInitiator. Sessions exist only while it runs; a portal this suite registered was removed
# before the service was stopped (this order), so a stopped initiator leaves nothing to undo.
Invoke-Step 'iSCSI sessions to the conformance targets' {
    if (-not (Test-ConformanceServiceRunning -Name 'MSiSCSI')) { return 'MSiSCSI is not running' }
    Get-IscsiSession | Where-Object { $_.TargetNodeAddress -like ('*:*-' + $pattern) } | ForEach-Object {
        if ($_.IsPersistent) { Unregister-IscsiSession -SessionIdentifier $_.SessionIdentifier | Out-Null }
        Disconnect-IscsiTarget -NodeAddress $_.TargetNodeAddress -SessionIdentifier $_.SessionIdentifier -Confirm:$false | Out-Null
    }
}
Invoke-Step 'iSCSI portal' {
    if ($PortalAddress -eq '') { return 'no portal address given' }
    if (-not (Test-ConformanceServiceRunning -Name 'MSiSCSI')) { return 'MSiSCSI is not running' }
    Get-IscsiTargetPortal | Where-Object { $_.TargetPortalAddress -eq $PortalAddress } | ForEach-Object {
        Remove-IscsiTargetPortal -InputObject $_ -Confirm:$false | Out-Null
    }
}
Invoke-Step 'folder mounts under the root' {
    $prefix = $Root.TrimEnd('\') + '\'
    Get-Partition | ForEach-Object {
        $partition = $_
        @($partition.AccessPaths) | Where-Object { $null -ne $_ -and $_.StartsWith($prefix, [System.StringComparison]::OrdinalIgnoreCase) } | ForEach-Object {
            $partition | Remove-PartitionAccessPath -AccessPath $_
        }
    }
}
Invoke-Step 'blank virtual disks' {
    if (Test-Path -LiteralPath (Join-Path $Root 'disks')) {
        Get-ChildItem -LiteralPath (Join-Path $Root 'disks') -Filter ($pattern + '.vhdx') | ForEach-Object {
            if ((Get-DiskImage -ImagePath $_.FullName).Attached) { Dismount-DiskImage -ImagePath $_.FullName | Out-Null }
            Remove-Item -LiteralPath $_.FullName -Force
        }
    }
}
# The IscsiTarget module can linger after the feature is uninstalled while WinTarget is gone;
# its targets went with the feature.
Invoke-Step 'iSCSI targets and virtual disks' {
    if ($null -eq (Get-Command -Name 'Get-IscsiServerTarget' -ErrorAction SilentlyContinue)) { return 'no iSCSI Target cmdlets' }
    if (-not (Test-ConformanceServiceRunning -Name 'WinTarget')) { return 'WinTarget is not running' }
    Get-IscsiServerTarget | Where-Object { $_.TargetName -like $pattern } | ForEach-Object {
        Remove-IscsiServerTarget -TargetName $_.TargetName | Out-Null
    }
    Get-IscsiVirtualDisk | Where-Object { (Split-Path -Leaf $_.Path) -like ($pattern + '.vhdx') } | ForEach-Object {
        Remove-IscsiVirtualDisk -Path $_.Path | Out-Null
        Remove-Item -LiteralPath $_.Path -Force -ErrorAction SilentlyContinue
    }
}
Invoke-Step 'SMB share' {
    Get-SmbShare | Where-Object { $_.Name -like $pattern } | ForEach-Object { Remove-SmbShare -Name $_.Name -Force }
}
Invoke-Step 'local user' {
    Get-LocalUser | Where-Object { $_.Name -like $pattern } | ForEach-Object { Remove-LocalUser -Name $_.Name }
}
Invoke-Step 'host names in the hosts file' {
    $hostsFile = Get-ConformanceHostsFile
    if (-not (Test-Path -LiteralPath $hostsFile)) { return 'no hosts file' }
    $lines = @(Get-Content -LiteralPath $hostsFile)
    $kept = @($lines | Where-Object { -not (Test-ConformanceHostsEntry -Line $_ -Pattern $pattern) })
    if ($kept.Count -ne $lines.Count) { Set-Content -LiteralPath $hostsFile -Value $kept -Encoding Ascii }
}
Invoke-Step 'files under the root' {
    # Nothing is mounted below Root any more; .NET deletes a reparse point without following it.
    if (Test-Path -LiteralPath $Root) { [System.IO.Directory]::Delete($Root, $true) }
}
Invoke-Step 'the stopped service' {
    if ($Service -ne '') {
        $s = Get-Service -Name $Service
        if ($s.Status -ne 'Running' -and [string]$s.StartType -eq 'Automatic') { Start-Service -Name $Service }
    }
}
Invoke-Step 'iSCSI initiator service' {
    if ($StopInitiator) { Stop-Service -Name 'MSiSCSI' -Force }
}
Invoke-Step 'iSCSI Target Server feature' {
    if ($UninstallFeature) {
        Remove-ItemProperty -Path 'HKLM:\SOFTWARE\Microsoft\iSCSI Target' -Name 'AllowLoopBack' -ErrorAction SilentlyContinue
        Uninstall-WindowsFeature -Name 'FS-iSCSITarget-Server' | Out-Null
    }
}
if ($failures.Count -gt 0) { throw ('Teardown left something behind: ' + ($failures -join '; ')) }
