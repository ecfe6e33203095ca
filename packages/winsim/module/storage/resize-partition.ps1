function Resize-Partition {
    [CmdletBinding(DefaultParameterSetName = 'ByUniqueId', SupportsShouldProcess, ConfirmImpact = 'Medium')]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Partition')]
    param(
        [Parameter(ParameterSetName = 'ById', Mandatory, ValueFromPipelineByPropertyName)]
        [string[]]$DiskId,
        [Parameter(ParameterSetName = 'ById', Mandatory, ValueFromPipelineByPropertyName)]
        [uint64[]]$Offset,
        [Parameter(ParameterSetName = 'ByNumber', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [uint32[]]$DiskNumber,
        [Parameter(ParameterSetName = 'ByNumber', Mandatory, Position = 1)]
        [Alias('Number')]
        [uint32[]]$PartitionNumber,
        [Parameter(ParameterSetName = 'ByDriveLetter', Mandatory, ValueFromPipelineByPropertyName)]
        [char[]]$DriveLetter,
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Partition')]
        [object[]]$InputObject,
        [Parameter(ParameterSetName = 'ById', Mandatory, Position = 2)]
        [Parameter(ParameterSetName = 'ByNumber', Mandatory, Position = 2)]
        [Parameter(ParameterSetName = 'ByDriveLetter', Mandatory, Position = 2)]
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, Position = 2)]
        [uint64]$Size,
        [Parameter(ParameterSetName = 'ById')]
        [Parameter(ParameterSetName = 'ByNumber')]
        [Parameter(ParameterSetName = 'ByDriveLetter')]
        [Parameter(ParameterSetName = 'InputObject (cdxml)')]
        [switch]$PassThru,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet $bound (Get-WinSimTarget @($InputObject)[0]) {
            param($ctx)
            foreach ($p in (Select-WinSimPartitions $ctx $bound)) {
                if (-not $PSCmdlet.ShouldProcess("Partition $($p.partitionNumber) on disk $($p.diskNumber)", 'Resize')) { continue }
                $current = [uint64]$p.size
                $delta = [math]::Abs([double]$Size - [double]$current)
                if ($delta -eq 0) { $ctx.Items.Add((New-WinSimStorageError 4097 'MSFT_Partition' 'The partition is already the requested size.')); continue }
                if ($delta -lt $script:WinSimMiB) { $ctx.Items.Add((New-WinSimStorageError 4097 'MSFT_Partition' 'The size of the extent is less than the minimum of 1MB.')); continue }
                $supported = Get-WinSimSupportedSize $ctx.State $p
                if ($Size -gt $supported.SizeMax -or $Size -lt $supported.SizeMin) { $ctx.Items.Add((New-WinSimStorageError 4097 'MSFT_Partition')); continue }
                $p.size = $Size
                $volume = Get-WinSimVolume $ctx.State ([string](Get-WinSimField $p 'volume' ''))
                if ($null -ne $volume) { $volume.size = $Size }
                $ctx.Changed = $true
                if ($PassThru) { $ctx.Items.Add((New-WinSimPartitionObject $ctx.State $p)) }
            }
        }
    }
}

# A file system cannot shrink below what it holds; RAW partitions only grow.
function Get-WinSimSupportedSize($State, $Partition) {
    $max = Get-WinSimMaxSize $State $Partition
    $min = [uint64]$Partition.size
    $volume = Get-WinSimVolume $State ([string](Get-WinSimField $Partition 'volume' ''))
    if ($null -ne $volume -and [string](Get-WinSimField $volume 'fileSystem' '') -ne '') {
        $used = [double](Get-WinSimField $volume 'baseUsed' 0) + [double](Get-WinSimUsedBytes $volume.guid)
        $min = [uint64]([math]::Max([double]$script:WinSimMiB * 8, [math]::Ceiling($used / $script:WinSimMiB) * $script:WinSimMiB))
        if ($min -gt [uint64]$Partition.size) { $min = [uint64]$Partition.size }
    }
    return [pscustomobject]@{ SizeMin = [uint64]$min; SizeMax = [uint64]$max }
}

function Get-PartitionSupportedSize {
    [CmdletBinding(DefaultParameterSetName = 'ByUniqueId')]
    param(
        [Parameter(ParameterSetName = 'ById', Mandatory, ValueFromPipelineByPropertyName)]
        [string[]]$DiskId,
        [Parameter(ParameterSetName = 'ById', ValueFromPipelineByPropertyName)]
        [uint64[]]$Offset,
        [Parameter(ParameterSetName = 'ByNumber', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [uint32[]]$DiskNumber,
        [Parameter(ParameterSetName = 'ByNumber', Position = 1)]
        [Alias('Number')]
        [uint32[]]$PartitionNumber,
        [Parameter(ParameterSetName = 'ByDriveLetter', Mandatory, ValueFromPipelineByPropertyName)]
        [char[]]$DriveLetter,
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Partition')]
        [object[]]$InputObject,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet $bound (Get-WinSimTarget @($InputObject)[0]) {
            param($ctx)
            foreach ($p in (Select-WinSimPartitions $ctx $bound)) {
                $supported = Get-WinSimSupportedSize $ctx.State $p
                $supported.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Partition_SupportedSize')
                $ctx.Items.Add($supported)
            }
        }
    }
}
