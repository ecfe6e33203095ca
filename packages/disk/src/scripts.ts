import { ps } from "@csi-proxy/exec";

// Constant scripts only: every value reaches them as a param() parameter, never as text.
// They target Windows PowerShell 5.1 and the real Storage cmdlets (windows-cmdlets.md §2).

/** Number and Location of every disk (upstream: `Get-Disk | select Number, Location`). */
export const listLocationsScript = ps("disk.listLocations")`
,@(Get-Disk | ForEach-Object { [pscustomobject]@{ number = $_.Number; location = $_.Location } })
`;

/** Refreshes the Storage provider's cached view of disks (upstream: `Update-HostStorageCache`). */
export const rescanScript = ps("disk.rescan")`
Update-HostStorageCache | Out-Null
`;

/** The state of one disk; a missing disk fails with CmdletizationQuery_NotFound_Number. */
export const getDiskScript = ps("disk.get")`
param([uint32]$Number)
$disk = Get-Disk -Number $Number
[pscustomobject]@{
    number         = $disk.Number
    # The raw CIM code: the PartitionStyle property itself is a display string that may be localised.
    partitionStyle = $disk.CimInstanceProperties['PartitionStyle'].Value
    isOffline      = $disk.IsOffline
    isReadOnly     = $disk.IsReadOnly
    size           = $disk.Size
}
`;

/** Initialises a RAW disk as GPT (upstream: `Initialize-Disk -Number n -PartitionStyle GPT`). */
export const initializeDiskScript = ps("disk.initialize")`
param([uint32]$Number)
Initialize-Disk -Number $Number -PartitionStyle GPT
`;

/**
 * How many partitions of the disk are not the Microsoft Reserved one. Upstream filtered on the
 * display string (`Where Type -ne Reserved`); the GPT type GUID says the same without
 * localisation, and MBR partitions (no GptType) count, as they must.
 */
export const countDataPartitionsScript = ps("disk.countDataPartitions")`
param([uint32]$Number)
$msr = '{e3c9e316-0b5c-4db8-817d-f92df00215ae}'
@(Get-Partition | Where-Object { $_.DiskNumber -eq $Number -and $_.GptType -ne $msr }).Count
`;

/** One partition over the whole free space (upstream: `New-Partition -DiskNumber n -UseMaximumSize`). */
export const createPartitionScript = ps("disk.createPartition")`
param([uint32]$Number)
New-Partition -DiskNumber $Number -UseMaximumSize | Out-Null
`;

/** Set-Disk's ByNumber set: -IsOffline cannot share a call with -IsReadOnly. */
export const setOfflineScript = ps("disk.setOffline")`
param([uint32]$Number, [bool]$IsOffline)
Set-Disk -Number $Number -IsOffline $IsOffline
`;

/** Set-Disk's ByNumberAttributes set. */
export const setReadOnlyScript = ps("disk.setReadOnly")`
param([uint32]$Number, [bool]$IsReadOnly)
Set-Disk -Number $Number -IsReadOnly $IsReadOnly
`;
