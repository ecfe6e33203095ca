function Get-Volume {
    [CmdletBinding(DefaultParameterSetName = 'ByDriveLetter')]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Volume')]
    param(
        [Parameter(ParameterSetName = 'ByDriveLetter', Position = 0, ValueFromPipelineByPropertyName)]
        [char[]]$DriveLetter,
        [Parameter(ParameterSetName = 'ById', ValueFromPipelineByPropertyName)]
        [Alias('Id')]
        [string[]]$ObjectId,
        [Parameter(ParameterSetName = 'ByUniqueId', ValueFromPipelineByPropertyName)]
        [string[]]$UniqueId,
        [Parameter(ParameterSetName = 'ByPaths', ValueFromPipelineByPropertyName)]
        [string[]]$Path,
        [Parameter(ParameterSetName = 'ByLabel', ValueFromPipelineByPropertyName)]
        [string[]]$FileSystemLabel,
        [Parameter(ParameterSetName = 'ByFilePath', ValueFromPipelineByPropertyName)]
        [Alias('FullName')]
        [string]$FilePath,
        [Parameter(ParameterSetName = 'ByPartition', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Partition')]
        [psobject]$Partition,
        [Parameter(ParameterSetName = 'ByDiskImage', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_DiskImage')]
        [psobject]$DiskImage,
        [Parameter(ParameterSetName = 'ByStorageSubSystem', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_StorageSubSystem')]
        [psobject]$StorageSubSystem,
        [Parameter(ParameterSetName = 'ByStoragePool', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_StoragePool')]
        [psobject]$StoragePool,
        [Parameter(ParameterSetName = 'ByStorageNode', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_StorageNode')]
        [psobject]$StorageNode,
        [Parameter(ParameterSetName = 'ByStorageFileServer', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_StorageFileServer')]
        [psobject]$StorageFileServer,
        [Parameter(ParameterSetName = 'ByFileShare', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_FileShare')]
        [psobject]$FileShare,
        [Parameter(ParameterSetName = 'ByStorageJob', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_StorageJob')]
        [psobject]$StorageJob,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet $bound (Get-WinSimTarget $Partition) {
            param($ctx)
            # One host: its storage subsystem and node hold every volume; it has no disk images, pools,
            # file servers, shares or storage jobs, so those associations reach no volume.
            foreach ($name in @('DiskImage', 'StoragePool', 'StorageFileServer', 'FileShare', 'StorageJob')) {
                if ($bound.ContainsKey($name)) { return }
            }
            $selectors = if ($bound.ContainsKey('StorageSubSystem') -or $bound.ContainsKey('StorageNode')) { @{} } else { $bound }
            foreach ($v in (Select-WinSimVolumes $ctx $selectors)) { $ctx.Items.Add((New-WinSimVolumeObject $ctx.State $v)) }
        }
    }
}

function Write-VolumeCache {
    [CmdletBinding(DefaultParameterSetName = 'ByDriveLetter')]
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
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Volume')]
        [object[]]$InputObject,
        [switch]$PassThru,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet $bound (Get-WinSimTarget @($InputObject)[0]) {
            param($ctx)
            foreach ($v in (Select-WinSimVolumes $ctx $bound)) {
                if ($PassThru) { $ctx.Items.Add((New-WinSimVolumeObject $ctx.State $v)) }
            }
        }
    }
}
