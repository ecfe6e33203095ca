function New-Partition {
    [CmdletBinding(DefaultParameterSetName = 'ByNumber')]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Partition')]
    param(
        [Parameter(ParameterSetName = 'ByNumber', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [uint32[]]$DiskNumber,
        [Parameter(ParameterSetName = 'ByUniqueId', Mandatory, ValueFromPipelineByPropertyName)]
        [Alias('Id')]
        [string[]]$DiskId,
        [Parameter(ParameterSetName = 'ByPath', Mandatory, ValueFromPipelineByPropertyName)]
        [string[]]$DiskPath,
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Disk')]
        [object[]]$InputObject,
        [uint64]$Size,
        [switch]$UseMaximumSize,
        [uint64]$Offset,
        [uint32]$Alignment,
        [Alias('NewDriveLetter')]
        [char]$DriveLetter,
        [switch]$AssignDriveLetter,
        [Microsoft.PowerShell.Cmdletization.GeneratedTypes.Partition.MbrType]$MbrType,
        [string]$GptType,
        [switch]$IsHidden,
        [switch]$IsActive,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet $bound (Get-WinSimTarget @($InputObject)[0]) {
            param($ctx)
            $names = @{ Number = 'DiskNumber'; UniqueId = 'DiskId'; Path = 'DiskPath' }
            foreach ($disk in (Select-WinSimDisks $ctx $bound $names)) { New-WinSimPartition $ctx $disk $bound }
        }
    }
}

function New-WinSimPartition($Ctx, $Disk, [System.Collections.IDictionary]$Bound) {
    $state = $Ctx.State
    if ($Bound.ContainsKey('Size') -eq [bool]$Bound['UseMaximumSize']) { $Ctx.Items.Add((New-WinSimStorageError 40005 'MSFT_Disk')); return }
    if ([int]$Disk.partitionStyle -eq 0) { $Ctx.Items.Add((New-WinSimStorageError 41000 'MSFT_Disk')); return }
    if ([bool](Get-WinSimField $Disk 'isOffline' $false)) { $Ctx.Items.Add((New-WinSimStorageError 41003 'MSFT_Disk')); return }
    if ([bool](Get-WinSimField $Disk 'isReadOnly' $false)) { $Ctx.Items.Add((New-WinSimStorageError 41002 'MSFT_Disk')); return }
    $extents = @(Get-WinSimFreeExtents $state $Disk)
    if ($Bound.ContainsKey('Offset')) {
        $at = [uint64]$Bound['Offset']
        $extents = @(foreach ($e in $extents) {
                if ($at -ge $e.Offset -and $at -lt $e.Offset + $e.Size) { [pscustomobject]@{ Offset = $at; Size = $e.Offset + $e.Size - $at } }
            })
    }
    $chosen = $null
    $size = [uint64]0
    if ($Bound['UseMaximumSize']) {
        foreach ($e in $extents) { if ($null -eq $chosen -or $e.Size -gt $chosen.Size) { $chosen = $e } }
        if ($null -ne $chosen) { $size = [uint64]$chosen.Size }
    } else {
        $size = [uint64]([math]::Ceiling([uint64]$Bound['Size'] / $script:WinSimMiB) * $script:WinSimMiB)
        foreach ($e in $extents) { if ($null -eq $chosen -and $e.Size -ge $size) { $chosen = $e } }
    }
    if ($null -eq $chosen -or $size -eq 0) { $Ctx.Items.Add((New-WinSimStorageError 40000 'MSFT_Disk')); return }
    $offset = [uint64]$chosen.Offset
    $gpt = $null
    $mbr = $null
    $guid = $null
    $volumeGuid = New-WinSimVolumeGuid $state
    if ([int]$Disk.partitionStyle -eq 2) {
        $gpt = if ($Bound.ContainsKey('GptType')) { ([string]$Bound['GptType']).ToLowerInvariant() } else { $script:WinSimGptBasic }
        $guid = '{' + [guid]::NewGuid().ToString() + '}'
    } else {
        $mbr = if ($Bound.ContainsKey('MbrType')) { [int]$Bound['MbrType'] } else { 6 }
        $volumeGuid = ('{0:x8}-0000-0000-{1}' -f [uint32](Get-WinSimField $Disk 'signature' 0), (Format-WinSimOffsetHex $offset))
    }
    $partition = [pscustomobject][ordered]@{
        diskNumber = [uint32]$Disk.number; partitionNumber = 0; offset = $offset; size = $size
        gptType = $gpt; mbrType = $mbr; driveLetter = $null; guid = $guid; accessPaths = @(); volume = $volumeGuid
        isReadOnly = $false; isOffline = $false; isHidden = [bool]$Bound['IsHidden']; isActive = [bool]$Bound['IsActive']
    }
    $state.partitions.Add($partition)
    $null = New-WinSimVolume $state $volumeGuid $size
    Update-WinSimPartitionNumbers $state $Disk.number
    $Ctx.Changed = $true
    $letter = $null
    if ($Bound.ContainsKey('DriveLetter')) { $letter = ([string]$Bound['DriveLetter']).ToUpperInvariant() }
    elseif ($Bound['AssignDriveLetter']) { $letter = Get-WinSimFreeDriveLetter $state }
    # The partition exists even when the letter is taken: Windows reports 42002 after creating it.
    if ($null -ne $letter) {
        if (Test-WinSimDriveLetterTaken $state $letter) { $Ctx.Items.Add((New-WinSimStorageError 42002 'MSFT_Disk')); return }
        $partition.driveLetter = $letter
    }
    $Ctx.Items.Add((New-WinSimPartitionObject $state $partition))
}
