function Add-PartitionAccessPath {
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
        [Parameter(ParameterSetName = 'ById', Position = 2)]
        [Parameter(ParameterSetName = 'ByNumber', Position = 2)]
        [Parameter(ParameterSetName = 'ByDriveLetter', Position = 2)]
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Position = 2)]
        [string]$AccessPath,
        [Parameter(ParameterSetName = 'ById')]
        [Parameter(ParameterSetName = 'ByNumber')]
        [Parameter(ParameterSetName = 'ByDriveLetter')]
        [Parameter(ParameterSetName = 'InputObject (cdxml)')]
        [switch]$AssignDriveLetter,
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
                if (-not $PSCmdlet.ShouldProcess("Partition $($p.partitionNumber) on disk $($p.diskNumber)", 'Add access path')) { continue }
                $record = Add-WinSimAccessPath $ctx.State $p $AccessPath ([bool]$AssignDriveLetter)
                if ($null -ne $record) { $ctx.Items.Add($record); continue }
                $ctx.Changed = $true
                if ($PassThru) { $ctx.Items.Add((New-WinSimPartitionObject $ctx.State $p)) }
            }
        }
    }
}

function Remove-PartitionAccessPath {
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
        [Parameter(ParameterSetName = 'ById', Position = 2)]
        [Parameter(ParameterSetName = 'ByNumber', Position = 2)]
        [Parameter(ParameterSetName = 'ByDriveLetter', Position = 2)]
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Position = 2)]
        [string]$AccessPath,
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
                if (-not $PSCmdlet.ShouldProcess("Partition $($p.partitionNumber) on disk $($p.diskNumber)", 'Remove access path')) { continue }
                $record = Remove-WinSimAccessPath $ctx.State $p $AccessPath
                if ($null -ne $record) { $ctx.Items.Add($record); continue }
                $ctx.Changed = $true
                if ($PassThru) { $ctx.Items.Add((New-WinSimPartitionObject $ctx.State $p)) }
            }
        }
    }
}
