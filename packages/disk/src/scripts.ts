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

/**
 * Makes the disk hold one data partition, in one call that observes, decides and acts: reads the
 * disk once (a missing disk fails with CmdletizationQuery_NotFound_Number); initialises it as GPT
 * when it is RAW (upstream: `Initialize-Disk -Number n -PartitionStyle GPT`), tolerating StorageWMI
 * 41001 (initialised since we looked, by someone else); counts the partitions that are not the
 * Microsoft Reserved one; and creates one over all free space when there is none (upstream:
 * `New-Partition -DiskNumber n -UseMaximumSize`), tolerating StorageWMI 42002 (the access path
 * failed) only when a data partition is there on a second count, as upstream does.
 * Upstream counted on the display string (`Where Type -ne Reserved`); the GPT type GUID says the
 * same without localisation, and MBR partitions (no GptType) count, as they must. Unfiltered
 * Get-Partition, as `-DiskNumber` fails on a disk without partitions.
 */
export const partitionDiskScript = ps("disk.partition")`
param([uint32]$Number)
$msr = '{e3c9e316-0b5c-4db8-817d-f92df00215ae}'
$disk = Get-Disk -Number $Number
$initialized = $false
# The raw CIM code (0 = RAW): the PartitionStyle property itself is a display string that may be localised.
if ($disk.CimInstanceProperties['PartitionStyle'].Value -eq 0) {
    try {
        Initialize-Disk -Number $Number -PartitionStyle GPT
        $initialized = $true
    } catch {
        $failure = $_
        if (-not ([string]$failure.FullyQualifiedErrorId -like 'StorageWMI 41001,*')) { throw $failure }
    }
}
$data = @(Get-Partition | Where-Object { $_.DiskNumber -eq $Number -and $_.GptType -ne $msr }).Count
$created = $false
if ($data -eq 0) {
    try {
        New-Partition -DiskNumber $Number -UseMaximumSize | Out-Null
    } catch {
        $failure = $_
        if (-not ([string]$failure.FullyQualifiedErrorId -like 'StorageWMI 42002,*')) { throw $failure }
        $data = @(Get-Partition | Where-Object { $_.DiskNumber -eq $Number -and $_.GptType -ne $msr }).Count
        if ($data -eq 0) { throw $failure }
    }
    $created = $true
}
[pscustomobject]@{ initialized = $initialized; created = $created }
`;

/**
 * Brings the disk online and, when asked, clears read-only, in one call that observes, decides
 * and acts: reads the disk once; `Set-Disk -IsOffline $false` only when it is offline, then reads
 * it again (Windows may apply read-only as it comes online); with `$ClearReadOnly`,
 * `Set-Disk -IsReadOnly $false` only when it is read-only, then reads it again (whether Windows can
 * report success and keep the attribute is not documented: check). Set-Disk's ByNumber set
 * (-IsOffline) cannot share a call with its ByNumberAttributes set (-IsReadOnly).
 * A refused clear is not thrown: the disk is online by now, so the refusal comes back as
 * `readOnlyRefusal` (the error record's fields) beside the state, for the caller to report as
 * such. A query miss (the disk went away) is thrown, to read as not found.
 */
export const setOnlineScript = ps("disk.setOnline")`
param([uint32]$Number, [bool]$ClearReadOnly)
$disk = Get-Disk -Number $Number
if ($disk.IsOffline) {
    Set-Disk -Number $Number -IsOffline $false
    $disk = Get-Disk -Number $Number
}
$refusal = $null
if ($ClearReadOnly -and $disk.IsReadOnly) {
    $cleared = $false
    try {
        Set-Disk -Number $Number -IsReadOnly $false
        $cleared = $true
    } catch {
        $failure = $_
        $id = [string]$failure.FullyQualifiedErrorId
        if ($id -like 'CmdletizationQuery_NotFound*') { throw $failure }
        $ex = $failure.Exception
        $chain = New-Object System.Collections.Generic.List[string]
        $inner = $ex
        while ($null -ne $inner) { $chain.Add($inner.GetType().FullName); $inner = $inner.InnerException }
        $native = $null
        $status = $null
        $messageId = $null
        $inner = $ex
        while ($null -ne $inner -and $null -eq $native) {
            # The first CimException in the chain, as the host script reads it for thrown errors.
            $nativeProp = $inner.PSObject.Properties['NativeErrorCode']
            if ($null -ne $nativeProp -and $null -ne $nativeProp.Value) {
                $native = [string]$nativeProp.Value
                $statusProp = $inner.PSObject.Properties['StatusCode']
                if ($null -ne $statusProp -and $null -ne $statusProp.Value) { $status = [int64]$statusProp.Value }
                $idProp = $inner.PSObject.Properties['MessageId']
                if ($null -ne $idProp -and $null -ne $idProp.Value) { $messageId = [string]$idProp.Value }
            }
            $inner = $inner.InnerException
        }
        $details = $null
        if ($null -ne $failure.ErrorDetails) { $details = [string]$failure.ErrorDetails.Message }
        $refusal = [pscustomobject]@{
            message               = [string]$ex.Message
            fullyQualifiedErrorId = $id
            category              = [string]$failure.CategoryInfo.Category
            reason                = [string]$failure.CategoryInfo.Reason
            targetName            = [string]$failure.CategoryInfo.TargetName
            targetType            = [string]$failure.CategoryInfo.TargetType
            exceptionType         = $ex.GetType().FullName
            exceptionChain        = $chain.ToArray()
            hResult               = $ex.HResult
            nativeErrorCode       = $native
            statusCode            = $status
            messageId             = $messageId
            errorDetails          = $details
            scriptStackTrace      = [string]$failure.ScriptStackTrace
        }
    }
    # Only Set-Disk's own failure is a refusal: the check after it fails as itself.
    if ($cleared) { $disk = Get-Disk -Number $Number }
}
[pscustomobject]@{ isOffline = $disk.IsOffline; isReadOnly = $disk.IsReadOnly; readOnlyRefusal = $refusal }
`;

/** Takes the disk offline when it is online, reading it once (Set-Disk's ByNumber set). */
export const setOfflineScript = ps("disk.setOffline")`
param([uint32]$Number)
$disk = Get-Disk -Number $Number
if (-not $disk.IsOffline) { Set-Disk -Number $Number -IsOffline $true }
[pscustomobject]@{ isOffline = $true; isReadOnly = $disk.IsReadOnly }
`;
