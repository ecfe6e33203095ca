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

function Invoke-Step([string]$Name, [scriptblock]$Body) {
    try {
        & $Body
        Write-Output ('ok    ' + $Name)
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
Invoke-Step 'iSCSI sessions to the conformance targets' {
    Get-IscsiSession | Where-Object { $_.TargetNodeAddress -like ('*:*-' + $pattern) } | ForEach-Object {
        if ($_.IsPersistent) { Unregister-IscsiSession -SessionIdentifier $_.SessionIdentifier }
        Disconnect-IscsiTarget -NodeAddress $_.TargetNodeAddress -SessionIdentifier $_.SessionIdentifier -Confirm:$false
    }
}
Invoke-Step 'iSCSI portal' {
    if ($PortalAddress -ne '') {
        Get-IscsiTargetPortal | Where-Object { $_.TargetPortalAddress -eq $PortalAddress } | ForEach-Object {
            Remove-IscsiTargetPortal -InputObject $_ -Confirm:$false
        }
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
Invoke-Step 'iSCSI targets and virtual disks' {
    if ($null -ne (Get-Command -Name 'Get-IscsiServerTarget' -ErrorAction SilentlyContinue)) {
        Get-IscsiServerTarget | Where-Object { $_.TargetName -like $pattern } | ForEach-Object {
            Remove-IscsiServerTarget -TargetName $_.TargetName
        }
        Get-IscsiVirtualDisk | Where-Object { (Split-Path -Leaf $_.Path) -like ($pattern + '.vhdx') } | ForEach-Object {
            Remove-IscsiVirtualDisk -Path $_.Path
            Remove-Item -LiteralPath $_.Path -Force -ErrorAction SilentlyContinue
        }
    }
}
Invoke-Step 'SMB share' {
    Get-SmbShare | Where-Object { $_.Name -like $pattern } | ForEach-Object { Remove-SmbShare -Name $_.Name -Force }
}
Invoke-Step 'local user' {
    Get-LocalUser | Where-Object { $_.Name -like $pattern } | ForEach-Object { Remove-LocalUser -Name $_.Name }
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
