# What the Storage module's type data shows for raw CIM codes (windows-cmdlets.md §1.2, §7).
$script:WinSimBusTypes = @{
    0 = 'Unknown'; 1 = 'SCSI'; 2 = 'ATAPI'; 3 = 'ATA'; 4 = '1394'; 5 = 'SSA'; 6 = 'Fibre Channel'; 7 = 'USB'
    8 = 'RAID'; 9 = 'iSCSI'; 10 = 'SAS'; 11 = 'SATA'; 12 = 'SD'; 13 = 'MMC'; 14 = 'Virtual'
    15 = 'File Backed Virtual'; 16 = 'Storage Spaces'; 17 = 'NVMe'
}
$script:WinSimPartitionStyles = @{ 0 = 'RAW'; 1 = 'MBR'; 2 = 'GPT' }
$script:WinSimUniqueIdFormats = @{ 0 = 'Vendor Specific'; 1 = 'Vendor Id'; 2 = 'EUI64'; 3 = 'FCPH Name'; 8 = 'SCSI Name String' }
$script:WinSimProvisioningTypes = @{ 0 = 'Unknown'; 1 = 'Thin'; 2 = 'Fixed' }
$script:WinSimOfflineReasons = @{
    1 = 'Policy'; 2 = 'Redundant Path'; 3 = 'Snapshot'; 4 = 'Collision'; 5 = 'Resource Exhaustion'
    6 = 'Critical Write Failures'; 7 = 'Data Integrity Scan Required'
}
$script:WinSimFileSystemTypes = @{ 'NTFS' = 14; 'ReFS' = 15; 'FAT32' = 6; 'FAT' = 4 }
$script:WinSimFileSystemTypeNames = @{ 0 = 'Unknown'; 4 = 'FAT'; 6 = 'FAT32'; 14 = 'NTFS'; 15 = 'ReFS' }
$script:WinSimMbrTypeNames = @{ 1 = 'FAT12'; 4 = 'FAT16'; 5 = 'Extended'; 6 = 'Huge'; 7 = 'IFS'; 12 = 'FAT32' }
$script:WinSimGptTypeNames = @{
    '{c12a7328-f81f-11d2-ba4b-00a0c93ec93b}' = 'System'
    '{e3c9e316-0b5c-4db8-817d-f92df00215ae}' = 'Reserved'
    '{ebd0a0a2-b9e5-4433-87c0-68b6b72699c7}' = 'Basic'
    '{de94bba4-06d1-4d40-a16a-bfd50179d6ac}' = 'Recovery'
}
$script:WinSimGptBasic = '{ebd0a0a2-b9e5-4433-87c0-68b6b72699c7}'
$script:WinSimGptReserved = '{e3c9e316-0b5c-4db8-817d-f92df00215ae}'
$script:WinSimHostId = '{8d0e3a52-5b1c-11ef-9a4e-806e6f6e6963}'

function Get-WinSimShown([hashtable]$Map, $Code, [string]$Fallback = 'Unknown') {
    if ($null -eq $Code) { return $null }
    $name = $Map[[int]$Code]
    if ($null -eq $name) { return $Fallback }
    return $name
}

# Property reads that tolerate keys a hand-written state.json leaves out.
function Get-WinSimField($Object, [string]$Name, $Default = $null) {
    $p = $Object.PSObject.Properties[$Name]
    if ($null -eq $p -or $null -eq $p.Value) { return $Default }
    return $p.Value
}
