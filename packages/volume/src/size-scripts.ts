import { ps } from "@csi-proxy/exec";

/**
 * Grows the volume's partition (and its file system) in one round trip, deciding as resize.ts
 * does. First `Update-HostStorageCache` (a disk a cloud just grew keeps its old size in the
 * provider's cache until then; aws-ebs-csi-driver#2881), then: an explicit `$Requested` above the
 * disk's size is `unreachable` (nothing changed); the target is `Get-PartitionSupportedSize`'s
 * SizeMax for 0 (`noSizeMax` when Windows gives none; its failure stops the script), else
 * `$Requested` clamped to SizeMax; when Get-PartitionSupportedSize fails for an explicit size
 * (defragsvc off, aws-ebs-csi-driver#2877) SizeMax comes from the layout instead (resize.ts
 * `layoutSizeMax`: up to the next partition or the disk's usable end, before the backup GPT, in
 * whole MiB). Growth under `$MinimumGrowth` (and any shrink) is `skipped`; else
 * `Resize-Partition -Size` and `resized` with the size. Sizes are computed as [decimal], exact.
 */
export const resizeVolumeScript = ps("volume.resizeVolume")`
param([string]$VolumeId, [uint64]$Requested, [uint64]$MinimumGrowth)
Update-HostStorageCache
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
$partition = @($volume | Get-Partition)[0]
if ($null -eq $partition) { Write-Error -Message 'The volume has no partition.' -Category ObjectNotFound -ErrorId 'PartitionNotFound' }
$disk = @($partition | Get-Disk)[0]
$diskSize = [decimal]$disk.Size
if ($Requested -gt 0 -and [decimal]$Requested -gt $diskSize) {
    [pscustomobject]@{ Status = 'unreachable'; DiskSize = $disk.Size }
    return
}
$maximum = $null
if ($Requested -eq 0) {
    $supported = @($partition | Get-PartitionSupportedSize)[0]
    if ($null -eq $supported -or $null -eq $supported.SizeMax) { [pscustomobject]@{ Status = 'noSizeMax' }; return }
    $maximum = [decimal]$supported.SizeMax
} else {
    $supported = $null
    $failed = $false
    try { $supported = @($partition | Get-PartitionSupportedSize)[0] } catch { $failed = $true }
    if ($failed) {
        $mib = [decimal]1048576
        $offset = [decimal]$partition.Offset
        $sector = [decimal]$disk.LogicalSectorSize
        $tail = [decimal]0
        # The raw CIM code (1 MBR, 2 GPT): the PartitionStyle property itself is a display string.
        if ([int]$disk.CimInstanceProperties['PartitionStyle'].Value -eq 2 -and $sector -gt 0) {
            $tail = $sector + [decimal]::Ceiling([decimal]16384 / $sector) * $sector
        }
        $end = [decimal]0
        if ($diskSize -gt $tail) { $end = [decimal]::Floor(($diskSize - $tail) / $mib) * $mib }
        foreach ($other in @($disk | Get-Partition)) {
            $start = [decimal]$other.Offset
            if ($start -gt $offset -and $start -lt $end) { $end = $start }
        }
        $maximum = [decimal]0
        if ($end -gt $offset) { $maximum = [decimal]::Floor(($end - $offset) / $mib) * $mib }
    } elseif ($null -ne $supported -and $null -ne $supported.SizeMax) {
        $maximum = [decimal]$supported.SizeMax
    }
}
$target = [decimal]$Requested
if ($Requested -eq 0 -or ($null -ne $maximum -and $target -gt $maximum)) { $target = $maximum }
if ($target -lt [decimal]$partition.Size + [decimal]$MinimumGrowth) { [pscustomobject]@{ Status = 'skipped' }; return }
$size = [uint64]$target
$partition | Resize-Partition -Size $size
[pscustomobject]@{ Status = 'resized'; Size = $size }
`;

/** The DiskNumber of every partition of the volume. */
export const getDiskNumbersScript = ps("volume.getDiskNumbers")`
param([string]$VolumeId)
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
, @($volume | Get-Partition | ForEach-Object { [uint32]$_.DiskNumber })
`;

/**
 * Every volume of the node with the disk of each of its partitions, in one Get-Partition: a
 * partition's AccessPaths list its volume's own `\\?\Volume{GUID}\` path (MSFT_Partition), the
 * volume's UniqueId. Partitions without a volume (an MSR) have none.
 */
export const listVolumeDisksScript = ps("volume.listVolumeDisks")`
param()
,@(Get-Partition | ForEach-Object {
    $partition = $_
    @($partition.AccessPaths) | Where-Object { $null -ne $_ -and ([string]$_).StartsWith('\\?\Volume{', [System.StringComparison]::OrdinalIgnoreCase) } | ForEach-Object {
        [pscustomobject]@{ VolumeId = [string]$_; DiskNumber = [uint32]$partition.DiskNumber }
    }
})
`;

/**
 * The partition's AccessPaths without its own \\?\Volume{GUID}\ path (listed for every volume)
 * and the null an MSR shows: drive roots (`D:\`) and mount folders, as Windows stores them.
 */
export const listMountPointsScript = ps("volume.listMountPoints")`
param([string]$VolumeId)
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
$paths = @($volume | Get-Partition | ForEach-Object { @($_.AccessPaths) } | Where-Object { $null -ne $_ -and -not ([string]$_).StartsWith('\\?\Volume{', [System.StringComparison]::OrdinalIgnoreCase) } | ForEach-Object { [string]$_ })
, $paths
`;

/** `Write-VolumeCache`: flushes the volume's file-system cache. */
export const writeVolumeCacheScript = ps("volume.writeVolumeCache")`
param([string]$VolumeId)
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
$volume | Write-VolumeCache
`;
