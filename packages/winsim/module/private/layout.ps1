$script:WinSimMiB = [uint64]1048576

function Get-WinSimDisk($State, $Number) {
    foreach ($d in $State.disks) { if ([uint32]$d.number -eq [uint32]$Number) { return $d } }
    return $null
}

function Get-WinSimDiskPartitions($State, $Number) {
    return @($State.partitions | Where-Object { [uint32]$_.diskNumber -eq [uint32]$Number } | Sort-Object { [uint64]$_.offset })
}

function Get-WinSimVolume($State, [string]$Guid) {
    foreach ($v in $State.volumes) { if ([string]$v.guid -eq $Guid) { return $v } }
    return $null
}

function Get-WinSimPartitionOfVolume($State, [string]$Guid) {
    foreach ($p in $State.partitions) { if ([string](Get-WinSimField $p 'volume' '') -eq $Guid) { return $p } }
    return $null
}

# Windows partition numbers follow the on-disk order, so they are recomputed after every change.
function Update-WinSimPartitionNumbers($State, $Number) {
    $i = 1
    foreach ($p in (Get-WinSimDiskPartitions $State $Number)) { $p.partitionNumber = $i; $i++ }
}

# Usable bytes: MBR from 1 MiB, GPT from 1 MiB (or after the MSR) up to the backup header, 1 MiB aligned.
# The size the Storage provider's cache holds. A disk grown on the storage side keeps its old
# `cachedSize` until Update-HostStorageCache (storage/disk.ps1); every Storage cmdlet sees that one.
function Get-WinSimCachedDiskSize($Disk) {
    $cached = Get-WinSimField $Disk 'cachedSize'
    if ($null -ne $cached) { return [uint64]$cached }
    return [uint64]$Disk.size
}

function Get-WinSimUsableEnd($Disk) {
    $size = Get-WinSimCachedDiskSize $Disk
    if ([int]$Disk.partitionStyle -eq 2) { $size = $size - 16896 }
    return [uint64]([math]::Floor($size / $script:WinSimMiB) * $script:WinSimMiB)
}

function Get-WinSimFreeExtents($State, $Disk) {
    $extents = [System.Collections.Generic.List[object]]::new()
    $cursor = $script:WinSimMiB
    $end = Get-WinSimUsableEnd $Disk
    foreach ($p in (Get-WinSimDiskPartitions $State $Disk.number)) {
        $start = [uint64]$p.offset
        if ($start -gt $cursor) { $extents.Add([pscustomobject]@{ Offset = $cursor; Size = $start - $cursor }) }
        $after = $start + [uint64]$p.size
        $aligned = [uint64]([math]::Ceiling($after / $script:WinSimMiB) * $script:WinSimMiB)
        if ($aligned -gt $cursor) { $cursor = $aligned }
    }
    if ($end -gt $cursor) { $extents.Add([pscustomobject]@{ Offset = $cursor; Size = $end - $cursor }) }
    return $extents.ToArray()
}

# How far a partition could grow in place: up to the next partition or the usable end.
function Get-WinSimMaxSize($State, $Partition) {
    $disk = Get-WinSimDisk $State $Partition.diskNumber
    $limit = Get-WinSimUsableEnd $disk
    foreach ($p in (Get-WinSimDiskPartitions $State $Partition.diskNumber)) {
        if ([uint64]$p.offset -gt [uint64]$Partition.offset -and [uint64]$p.offset -lt $limit) { $limit = [uint64]$p.offset }
    }
    return [uint64]($limit - [uint64]$Partition.offset)
}

# Offsets appear in partition UniqueIds and MBR volume GUIDs as their 8 little-endian bytes.
function Format-WinSimOffsetHex([uint64]$Offset) {
    $hex = -join ([BitConverter]::GetBytes($Offset) | ForEach-Object { $_.ToString('x2') })
    return $hex.Substring(0, 4) + '-' + $hex.Substring(4)
}

function Get-WinSimUsedBytes([string]$Guid) {
    $root = Get-WinSimVolumeRoot $Guid
    if (-not [System.IO.Directory]::Exists($root)) { return [uint64]0 }
    $options = [System.IO.EnumerationOptions]::new()
    $options.RecurseSubdirectories = $true
    $options.AttributesToSkip = [System.IO.FileAttributes]::ReparsePoint
    $total = [uint64]0
    foreach ($file in [System.IO.DirectoryInfo]::new($root).EnumerateFiles('*', $options)) { $total += [uint64]$file.Length }
    return $total
}

function New-WinSimVolume($State, [string]$Guid, [uint64]$Size) {
    $volume = [pscustomobject][ordered]@{
        guid = $Guid; fileSystem = ''; label = ''; allocationUnitSize = 0; size = $Size; baseUsed = 0
    }
    $State.volumes.Add($volume)
    [void][System.IO.Directory]::CreateDirectory((Get-WinSimVolumeRoot $Guid))
    return $volume
}

function Test-WinSimDriveLetterTaken($State, [string]$Letter) {
    foreach ($p in $State.partitions) {
        if ([string](Get-WinSimField $p 'driveLetter' '') -eq $Letter.ToUpperInvariant()) { return $true }
    }
    return $false
}

function Get-WinSimFreeDriveLetter($State) {
    foreach ($code in 68..90) {
        $letter = [string][char]$code
        if (-not (Test-WinSimDriveLetterTaken $State $letter)) { return $letter }
    }
    return $null
}
