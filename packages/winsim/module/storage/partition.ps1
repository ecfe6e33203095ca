function Get-Partition {
    [CmdletBinding(DefaultParameterSetName = 'ByUniqueId')]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Partition')]
    param(
        [Parameter(ParameterSetName = 'ByUniqueId', ValueFromPipelineByPropertyName)]
        [string[]]$UniqueId,
        [Parameter(ParameterSetName = 'ById', Mandatory, ValueFromPipelineByPropertyName)]
        [Alias('DiskPath')]
        [string[]]$DiskId,
        [Parameter(ParameterSetName = 'ById', ValueFromPipelineByPropertyName)]
        [uint64[]]$Offset,
        [Parameter(ParameterSetName = 'ByNumber', Position = 0, ValueFromPipelineByPropertyName)]
        [uint32[]]$DiskNumber,
        [Parameter(ParameterSetName = 'ByNumber', Position = 1)]
        [Alias('Number')]
        [uint32[]]$PartitionNumber,
        [Parameter(ParameterSetName = 'ByDriveLetter', ValueFromPipelineByPropertyName)]
        [char[]]$DriveLetter,
        [Parameter(ParameterSetName = 'ByDisk', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Disk')]
        [psobject]$Disk,
        [Parameter(ParameterSetName = 'ByVolume', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Volume')]
        [psobject]$Volume,
        [Parameter(ParameterSetName = 'ByStorageSubSystem', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_StorageSubSystem')]
        [psobject]$StorageSubSystem,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        $piped = if ($null -ne $Disk) { $Disk } else { $Volume }
        Invoke-WinSimCommand $PSCmdlet $bound (Get-WinSimTarget $piped) {
            param($ctx)
            # One host, one storage subsystem: it holds every partition.
            $selectors = if ($bound.ContainsKey('StorageSubSystem')) { @{} } else { $bound }
            foreach ($p in (Select-WinSimPartitions $ctx $selectors)) { $ctx.Items.Add((New-WinSimPartitionObject $ctx.State $p)) }
        }
    }
}
