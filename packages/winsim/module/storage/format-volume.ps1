function Format-Volume {
    [CmdletBinding(DefaultParameterSetName = 'ByDriveLetter', SupportsShouldProcess, ConfirmImpact = 'High')]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Volume')]
    param(
        [Parameter(ParameterSetName = 'ByDriveLetter', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [AllowNull()][AllowEmptyCollection()]
        [char[]]$DriveLetter,
        [Parameter(ParameterSetName = 'ById', Mandatory, ValueFromPipelineByPropertyName)]
        [Alias('Id')]
        [string[]]$ObjectId,
        [Parameter(ParameterSetName = 'ByPaths', Mandatory, ValueFromPipelineByPropertyName)]
        [string[]]$Path,
        [Parameter(ParameterSetName = 'ByLabel', Mandatory, ValueFromPipelineByPropertyName)]
        [string[]]$FileSystemLabel,
        [Parameter(ParameterSetName = 'ByPartition', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Partition')]
        [psobject]$Partition,
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Volume')]
        [object[]]$InputObject,
        [ValidateSet('FAT', 'FAT32', 'exFAT', 'NTFS', 'ReFS')]
        [string]$FileSystem,
        [string]$NewFileSystemLabel,
        [Alias('ClusterSize')]
        [uint32]$AllocationUnitSize,
        [switch]$Full,
        [switch]$Force,
        [switch]$Compress,
        [bool]$ShortFileNameSupport,
        [bool]$SetIntegrityStreams,
        [switch]$UseLargeFRS,
        [switch]$DisableHeatGathering,
        [bool]$IsDAX,
        [switch]$DevDrive,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        $piped = if ($null -ne $Partition) { $Partition } else { @($InputObject)[0] }
        Invoke-WinSimCommand $PSCmdlet $bound (Get-WinSimTarget $piped) {
            param($ctx)
            foreach ($v in (Select-WinSimVolumes $ctx $bound)) {
                if (-not $PSCmdlet.ShouldProcess("Volume $($v.guid)", 'Format')) { continue }
                Format-WinSimVolume $ctx.State $v $bound
                $ctx.Changed = $true
                $ctx.Items.Add((New-WinSimVolumeObject $ctx.State $v))
            }
        }
    }
}

# Formatting erases what was written to the volume and sets the MBR partition id to match.
function Format-WinSimVolume($State, $Volume, [System.Collections.IDictionary]$Bound) {
    $fs = if ($Bound.ContainsKey('FileSystem')) { [string]$Bound['FileSystem'] } else { 'NTFS' }
    $canonical = @{ 'fat' = 'FAT'; 'fat32' = 'FAT32'; 'exfat' = 'exFAT'; 'ntfs' = 'NTFS'; 'refs' = 'ReFS' }
    $fs = $canonical[$fs.ToLowerInvariant()]
    $unit = if ($Bound.ContainsKey('AllocationUnitSize')) { [uint32]$Bound['AllocationUnitSize'] } else { 4096 }
    $Volume.fileSystem = $fs
    $Volume.allocationUnitSize = $unit
    $Volume.label = if ($Bound.ContainsKey('NewFileSystemLabel')) { [string]$Bound['NewFileSystemLabel'] } else { '' }
    $root = Get-WinSimVolumeRoot $Volume.guid
    if ([System.IO.Directory]::Exists($root)) {
        foreach ($entry in [System.IO.DirectoryInfo]::new($root).EnumerateFileSystemInfos()) {
            if ($entry -is [System.IO.DirectoryInfo] -and $null -eq $entry.LinkTarget) { $entry.Delete($true) } else { $entry.Delete() }
        }
    } else {
        [void][System.IO.Directory]::CreateDirectory($root)
    }
    $partition = Get-WinSimPartitionOfVolume $State $Volume.guid
    if ($null -ne $partition -and $null -ne (Get-WinSimField $partition 'mbrType')) {
        $partition.mbrType = if ($fs -eq 'FAT32') { 12 } elseif ($fs -eq 'FAT') { 6 } else { 7 }
    }
}
