import { ps } from "@csi-proxy/exec";

// Every script finds its volume the same way; a miss is an ObjectNotFound error (even if Windows
// treated the `?` of the id as a wildcard and returned nothing instead of an error).

/** `Get-Disk | Get-Partition | Get-Volume`: the UniqueIds of a disk's (or one partition's) volumes. */
export const listVolumeIdsScript = ps("volume.listVolumeIds")`
param([uint32]$DiskNumber, [uint32]$PartitionNumber)
$disk = Get-Disk -Number $DiskNumber
if ($PartitionNumber -eq 0) {
    $partitions = @($disk | Get-Partition)
} else {
    $partitions = @(Get-Partition -DiskNumber $DiskNumber -PartitionNumber $PartitionNumber)
}
$ids = @()
if ($partitions.Count -gt 0) {
    $ids = @($partitions | Get-Volume | ForEach-Object { [string]$_.UniqueId })
}
, $ids
`;

/** `Get-Volume -UniqueId`: file system and sizes of one volume. */
export const getVolumeScript = ps("volume.getVolume")`
param([string]$VolumeId)
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
[pscustomobject]@{
    UniqueId = [string]$volume.UniqueId
    FileSystem = [string]$volume.FileSystem
    FileSystemType = [string]$volume.FileSystemType
    FileSystemLabel = [string]$volume.FileSystemLabel
    Size = $volume.Size
    SizeRemaining = $volume.SizeRemaining
}
`;

/** `Format-Volume -FileSystem -NewFileSystemLabel -Force -Confirm:$false` (quick: no `-Full`). */
export const formatVolumeScript = ps("volume.formatVolume")`
param([string]$VolumeId, [string]$FileSystem, [string]$Label)
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
$options = @{ FileSystem = $FileSystem; Force = $true; Confirm = $false }
if ($Label) { $options['NewFileSystemLabel'] = $Label }
$null = $volume | Format-Volume @options
`;

/** `Add-PartitionAccessPath`, after checking the partition's AccessPaths and the folder. */
export const mountVolumeScript = ps("volume.mountVolume")`
param([string]$VolumeId, [string]$TargetPath)
function ConvertTo-CsiPathKey([string]$Value) {
    $text = $Value
    if ($text -match '^\\\\\?\\[A-Za-z]:') { $text = $text.Substring(4) }
    $text = $text.TrimEnd('\', '/')
    if ($text -eq '') { $text = '/' }
    $text.ToLowerInvariant()
}
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
$partition = @($volume | Get-Partition)[0]
if ($null -eq $partition) { Write-Error -Message 'The volume has no partition.' -Category ObjectNotFound -ErrorId 'PartitionNotFound' }
$key = ConvertTo-CsiPathKey $TargetPath
foreach ($accessPath in @($partition.AccessPaths)) {
    if ($accessPath -and (ConvertTo-CsiPathKey $accessPath) -eq $key) { return [pscustomobject]@{ Status = 'alreadyMounted' } }
}
$item = Get-Item -LiteralPath $TargetPath -Force
# Only a junction (a mount point is one) or a symbolic link has a target: on 5.1 the Target of a
# plain item lists its hard-link names, bogus for an item on a folder-mounted volume.
$isLink = $item.LinkType -in 'Junction', 'SymbolicLink'
$target = ''
if ($isLink) { $target = [string](@($item.Target) | Select-Object -First 1) }
if ($isLink) {
    $guid = [regex]::Match($target, 'Volume\{[\w-]*\}')
    if ($guid.Success -and $VolumeId.IndexOf($guid.Value, [System.StringComparison]::OrdinalIgnoreCase) -ge 0) {
        return [pscustomobject]@{ Status = 'alreadyMounted' }
    }
    return [pscustomobject]@{ Status = 'occupied'; Target = $target }
}
if (-not $item.PSIsContainer) { return [pscustomobject]@{ Status = 'notDirectory' } }
if (@(Get-ChildItem -LiteralPath $TargetPath -Force).Count -gt 0) { return [pscustomobject]@{ Status = 'notEmpty' } }
$partition | Add-PartitionAccessPath -AccessPath $TargetPath
[pscustomobject]@{ Status = 'mounted' }
`;

/** `Write-VolumeCache`, then `Remove-PartitionAccessPath` when the path is one of the partition's. */
export const unmountVolumeScript = ps("volume.unmountVolume")`
param([string]$VolumeId, [string]$TargetPath)
function ConvertTo-CsiPathKey([string]$Value) {
    $text = $Value
    if ($text -match '^\\\\\?\\[A-Za-z]:') { $text = $text.Substring(4) }
    $text = $text.TrimEnd('\', '/')
    if ($text -eq '') { $text = '/' }
    $text.ToLowerInvariant()
}
$volume = @(Get-Volume -UniqueId $VolumeId)[0]
if ($null -eq $volume) { Write-Error -Message 'No volume has this UniqueId.' -Category ObjectNotFound -ErrorId 'VolumeNotFound' }
$partition = @($volume | Get-Partition)[0]
if ($null -eq $partition) { Write-Error -Message 'The volume has no partition.' -Category ObjectNotFound -ErrorId 'PartitionNotFound' }
$volume | Write-VolumeCache
$key = ConvertTo-CsiPathKey $TargetPath
foreach ($accessPath in @($partition.AccessPaths)) {
    if ($accessPath -and (ConvertTo-CsiPathKey $accessPath) -eq $key) {
        $partition | Remove-PartitionAccessPath -AccessPath $accessPath
        return [pscustomobject]@{ Status = 'unmounted' }
    }
}
if (Test-Path -LiteralPath $TargetPath) {
    $item = Get-Item -LiteralPath $TargetPath -Force
    $target = ''
    if ($item.LinkType -in 'Junction', 'SymbolicLink') { $target = [string](@($item.Target) | Select-Object -First 1) }
    $guid = [regex]::Match($target, 'Volume\{[\w-]*\}')
    if ($guid.Success -and $VolumeId.IndexOf($guid.Value, [System.StringComparison]::OrdinalIgnoreCase) -lt 0) {
        return [pscustomobject]@{ Status = 'otherVolume'; Target = $target }
    }
}
[pscustomobject]@{ Status = 'notMounted' }
`;
