import { ps } from "@csi-proxy/exec";

/**
 * The partition under a volume after `Update-HostStorageCache` (a disk a cloud just grew keeps its
 * old size in the provider's cache until then; aws-ebs-csi-driver#2881): disk, number, `Size`,
 * `Get-PartitionSupportedSize` SizeMax on request, and the layout that bounds the partition without
 * defragsvc (its offset, the next partition's, the disk's size, sector size and raw partition style).
 */
export const getPartitionSizesScript = ps("volume.getPartitionSizes")`
param([string]$VolumeId, [bool]$IncludeMaximum)
Update-HostStorageCache
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
$partition = @($volume | Get-Partition)[0]
if ($null -eq $partition) { Write-Error -Message 'The volume has no partition.' -Category ObjectNotFound -ErrorId 'PartitionNotFound' }
$maximum = $null
if ($IncludeMaximum) { $maximum = @($partition | Get-PartitionSupportedSize)[0].SizeMax }
$disk = @($partition | Get-Disk)[0]
$next = $null
foreach ($other in @($disk | Get-Partition)) {
    $offset = [uint64]$other.Offset
    if ($offset -gt [uint64]$partition.Offset -and ($null -eq $next -or $offset -lt $next)) { $next = $offset }
}
[pscustomobject]@{
    DiskNumber = $partition.DiskNumber
    PartitionNumber = $partition.PartitionNumber
    Size = $partition.Size
    SizeMax = $maximum
    Offset = $partition.Offset
    NextOffset = $next
    DiskSize = $disk.Size
    LogicalSectorSize = $disk.LogicalSectorSize
    # The raw CIM code (1 MBR, 2 GPT): the PartitionStyle property itself is a display string.
    PartitionStyle = $disk.CimInstanceProperties['PartitionStyle'].Value
}
`;

/** `Resize-Partition -Size`, which grows (or shrinks) the file system with the partition. */
export const resizePartitionScript = ps("volume.resizePartition")`
param([string]$VolumeId, [uint64]$Size)
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
$volume | Get-Partition | Resize-Partition -Size $Size
`;

/** The DiskNumber of every partition of the volume. */
export const getDiskNumbersScript = ps("volume.getDiskNumbers")`
param([string]$VolumeId)
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
, @($volume | Get-Partition | ForEach-Object { [uint32]$_.DiskNumber })
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
