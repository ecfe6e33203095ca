function Set-Disk {
    [CmdletBinding(DefaultParameterSetName = 'ByNumberAttributes')]
    param(
        [Parameter(ParameterSetName = 'ByNumberAttributes', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ByNumberConvertStyle', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ByNumber', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [uint32]$Number,
        [Parameter(ParameterSetName = 'ByIdConvertStyle', Mandatory, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ByIdAttributes', Mandatory, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ById', Mandatory, ValueFromPipelineByPropertyName)]
        [string]$UniqueId,
        [Parameter(ParameterSetName = 'ByPathConvertStyle', Mandatory, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ByPathAttributes', Mandatory, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ByPath', Mandatory, ValueFromPipelineByPropertyName)]
        [string]$Path,
        [Parameter(ParameterSetName = 'ByObjectAttributes', Mandatory, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'ByObject', Mandatory, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'ByObjectConvertStyle', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Disk')]
        [object[]]$InputObject,
        [Parameter(ParameterSetName = 'ByObject')]
        [Parameter(ParameterSetName = 'ById')]
        [Parameter(ParameterSetName = 'ByPath')]
        [Parameter(ParameterSetName = 'ByNumber')]
        [bool]$IsOffline,
        [Parameter(ParameterSetName = 'ByNumberAttributes')]
        [Parameter(ParameterSetName = 'ByObjectAttributes')]
        [Parameter(ParameterSetName = 'ByIdAttributes')]
        [Parameter(ParameterSetName = 'ByPathAttributes')]
        [bool]$IsReadOnly,
        [Parameter(ParameterSetName = 'ByNumberAttributes')]
        [Parameter(ParameterSetName = 'ByObjectAttributes')]
        [Parameter(ParameterSetName = 'ByIdAttributes')]
        [Parameter(ParameterSetName = 'ByPathAttributes')]
        [uint32]$Signature,
        [Parameter(ParameterSetName = 'ByNumberAttributes')]
        [Parameter(ParameterSetName = 'ByObjectAttributes')]
        [Parameter(ParameterSetName = 'ByIdAttributes')]
        [Parameter(ParameterSetName = 'ByPathAttributes')]
        [string]$Guid,
        [Parameter(ParameterSetName = 'ByObjectConvertStyle')]
        [Parameter(ParameterSetName = 'ByNumberConvertStyle')]
        [Parameter(ParameterSetName = 'ByPathConvertStyle')]
        [Parameter(ParameterSetName = 'ByIdConvertStyle')]
        [Microsoft.PowerShell.Cmdletization.GeneratedTypes.Disk.PartitionStyle]$PartitionStyle,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet $bound (Get-WinSimTarget @($InputObject)[0]) {
            param($ctx)
            foreach ($disk in (Select-WinSimDisks $ctx $bound)) {
                if ($bound.ContainsKey('IsOffline')) { Set-WinSimDiskOnline $ctx.State $disk $IsOffline }
                if ($bound.ContainsKey('IsReadOnly')) {
                    if (-not $IsReadOnly -and (Test-WinSimDiskWriteProtected $disk)) {
                        $ctx.Items.Add((New-WinSimStorageError 41002 'MSFT_Disk'))
                        continue
                    }
                    $disk.isReadOnly = $IsReadOnly
                }
                if ($bound.ContainsKey('Signature')) { $disk.signature = $Signature }
                if ($bound.ContainsKey('Guid')) { $disk.guid = $Guid }
                if ($bound.ContainsKey('PartitionStyle')) {
                    $data = @(Get-WinSimDiskPartitions $ctx.State $disk.number | Where-Object { $null -ne (Get-WinSimField $_ 'volume') })
                    if ([int]$disk.partitionStyle -eq 0 -or [int]$PartitionStyle -eq 0 -or $data.Count -gt 0) {
                        $record = New-WinSimStorageError 1 'MSFT_StorageCmdlets'
                        $ctx.Items.Add($record)
                        continue
                    }
                    if ([int]$disk.partitionStyle -ne [int]$PartitionStyle) {
                        foreach ($p in @(Get-WinSimDiskPartitions $ctx.State $disk.number)) { [void]$ctx.State.partitions.Remove($p) }
                        Initialize-WinSimDiskLayout $ctx.State $disk ([int]$PartitionStyle)
                    }
                }
                $ctx.Changed = $true
            }
        }
    }
}

# A disk whose read-only the storage side enforces (a LUN exported read-only, a read-only or
# multi-attach cloud attachment). Whether MSFT_Disk.SetAttributes refuses to clear IsReadOnly on
# such a disk, or succeeds and the attribute comes back, is not documented (review F3); the
# simulator models the refusal, with 41002 "The disk is read only", the code upstream csi-proxy
# treats as "write-protected or physically locked" (kubernetes-csi/csi-proxy#438, pkg/wmi/disk.go).
function Test-WinSimDiskWriteProtected($Disk) {
    return [bool](Get-WinSimField $Disk 'writeProtected' $false)
}

# Onlining a disk whose signature collides gives it a new identity, as Windows does.
function Set-WinSimDiskOnline($State, $Disk, [bool]$Offline) {
    if ($Offline) {
        $Disk.isOffline = $true
        if ($null -eq (Get-WinSimField $Disk 'offlineReason')) { $Disk.offlineReason = 1 }
        return
    }
    if ([int](Get-WinSimField $Disk 'offlineReason' 0) -eq 4) {
        if ([int]$Disk.partitionStyle -eq 1) { $Disk.signature = [uint32](Get-Random -Minimum 16777216 -Maximum 2147483647) }
        if ([int]$Disk.partitionStyle -eq 2) { $Disk.guid = '{' + [guid]::NewGuid().ToString() + '}' }
    }
    $Disk.isOffline = $false
    $Disk.offlineReason = $null
}
