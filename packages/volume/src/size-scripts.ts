import { ps } from "@csi-proxy/exec";

/** The partition under a volume: disk, number, `Size`, and `Get-PartitionSupportedSize` SizeMax on request. */
export const getPartitionSizesScript = ps("volume.getPartitionSizes")`
param([string]$VolumeId, [bool]$IncludeMaximum)
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
$partition = @($volume | Get-Partition)[0]
if ($null -eq $partition) { Write-Error -Message 'The volume has no partition.' -Category ObjectNotFound -ErrorId 'PartitionNotFound' }
$maximum = $null
if ($IncludeMaximum) { $maximum = @($partition | Get-PartitionSupportedSize)[0].SizeMax }
[pscustomobject]@{
    DiskNumber = $partition.DiskNumber
    PartitionNumber = $partition.PartitionNumber
    Size = $partition.Size
    SizeMax = $maximum
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

/** `Write-VolumeCache`: flushes the volume's file-system cache. */
export const writeVolumeCacheScript = ps("volume.writeVolumeCache")`
param([string]$VolumeId)
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
$volume | Write-VolumeCache
`;
