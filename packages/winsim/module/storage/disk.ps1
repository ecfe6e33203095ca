function Get-Disk {
    [CmdletBinding(DefaultParameterSetName = 'ByNumber', PositionalBinding = $false)]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Disk')]
    param(
        [Parameter(ParameterSetName = 'ByNumber', Position = 0, ValueFromPipelineByPropertyName)]
        [Alias('DeviceId')]
        [uint32[]]$Number,
        [Parameter(ParameterSetName = 'ByUniqueId')]
        [Alias('Id')]
        [string[]]$UniqueId,
        [Parameter(ParameterSetName = 'ByName')]
        [string[]]$FriendlyName,
        [Parameter(ParameterSetName = 'ByName')]
        [string[]]$SerialNumber,
        [Parameter(ParameterSetName = 'ByPath', ValueFromPipelineByPropertyName)]
        [string[]]$Path,
        [Parameter(ParameterSetName = 'ByPartition', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Partition')]
        [psobject]$Partition,
        [Parameter(ParameterSetName = 'ByVirtualDisk', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_VirtualDisk')]
        [psobject]$VirtualDisk,
        [Parameter(ParameterSetName = 'ByiSCSISession', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSISession')]
        [psobject]$iSCSISession,
        [Parameter(ParameterSetName = 'ByiSCSIConnection', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSIConnection')]
        [psobject]$iSCSIConnection,
        [Parameter(ParameterSetName = 'ByStorageSubSystem', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_StorageSubSystem')]
        [psobject]$StorageSubSystem,
        [Parameter(ParameterSetName = 'ByStorageNode', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_StorageNode')]
        [psobject]$StorageNode,
        [Parameter(ParameterSetName = 'ByStorageJob', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_StorageJob')]
        [psobject]$StorageJob,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        $piped = if ($null -ne $Partition) { Get-WinSimTarget $Partition } else {
            Get-WinSimIscsiTarget (@($iSCSISession, $iSCSIConnection, $VirtualDisk, $StorageSubSystem, $StorageNode, $StorageJob) | Where-Object { $null -ne $_ } | Select-Object -First 1)
        }
        $associated = @('ByVirtualDisk', 'ByiSCSISession', 'ByiSCSIConnection', 'ByStorageSubSystem', 'ByStorageNode', 'ByStorageJob') -contains $PSCmdlet.ParameterSetName
        Invoke-WinSimCommand $PSCmdlet $bound $piped {
            param($ctx)
            $disks = if ($associated) { Select-WinSimAssociatedDisks $ctx.State $bound } else { Select-WinSimDisks $ctx $bound }
            foreach ($disk in $disks) { $ctx.Items.Add((New-WinSimDiskObject $ctx.State $disk)) }
        }
    }
}

# The association sets: an association that reaches no disk returns nothing and no error, as a
# CDXML association query does (only property filters report "not found", windows-cmdlets.md §1.1).
function Select-WinSimAssociatedDisks($State, [System.Collections.IDictionary]$Bound) {
    $disks = @($State.disks | Sort-Object { [uint32]$_.number })
    if ($Bound.ContainsKey('iSCSISession') -or $Bound.ContainsKey('iSCSIConnection')) {
        $iscsi = Get-WinSimIscsi $State
        $sessions = if ($Bound.ContainsKey('iSCSISession')) {
            @($iscsi.sessions | Where-Object { Test-WinSimSameText $_.sessionIdentifier ([string]$Bound['iSCSISession'].SessionIdentifier) })
        } else {
            $id = [string]$Bound['iSCSIConnection'].ConnectionIdentifier
            @($iscsi.sessions | Where-Object { @($_.connections | Where-Object { $_.connectionIdentifier -eq $id }).Count -gt 0 })
        }
        $numbers = @($sessions | ForEach-Object { @($_.disks) } | Where-Object { $null -ne $_ } | ForEach-Object { [int64]$_.diskNumber })
        return , @($disks | Where-Object { $numbers -contains [int64]$_.number })
    }
    # Storage Spaces disks carry their virtual disk's friendly name.
    if ($Bound.ContainsKey('VirtualDisk')) {
        $name = [string]$Bound['VirtualDisk'].FriendlyName
        return , @($disks | Where-Object { [int]$_.busType -eq 16 -and [string](Get-WinSimField $_ 'friendlyName' '') -eq $name })
    }
    # One host: its single storage subsystem and node hold every disk; no storage jobs run here.
    if ($Bound.ContainsKey('StorageSubSystem') -or $Bound.ContainsKey('StorageNode')) { return , $disks }
    return , @()
}

# Refreshes the provider's cache: a disk grown on the storage side (`cachedSize` set) shows its new
# size from now on. Until then Get-Disk, Get-PartitionSupportedSize and Resize-Partition keep the
# old size, as aws-ebs-csi-driver#2881 found after EBS grew a volume (it now calls this before every
# resize). Whether Windows also refreshes on its own, and when, is not documented: the less
# convenient reading, stale until this call, is the one modelled.
function Update-HostStorageCache {
    [CmdletBinding(PositionalBinding = $false)]
    param(
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet $bound $null {
            param($ctx)
            foreach ($disk in @($ctx.State.disks)) {
                if ($null -eq $disk.PSObject.Properties['cachedSize']) { continue }
                $disk.PSObject.Properties.Remove('cachedSize')
                $ctx.Changed = $true
            }
        }
    }
}
