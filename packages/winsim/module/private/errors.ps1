# A CDXML query that matched nothing: non-terminating, CimJobException, ObjectNotFound.
function New-WinSimNotFound([string]$Class, [string]$Property, $Value) {
    $message = "No $Class objects found with property '$Property' equal to '$Value'.  Verify the value of the property and retry."
    $exception = [Microsoft.PowerShell.Cmdletization.Cim.CimJobException]::new($message)
    return [System.Management.Automation.ErrorRecord]::new($exception, "CmdletizationQuery_NotFound_$Property", 'ObjectNotFound', $Value)
}

# MI_RESULT_FAILED: the MI result (and CIMStatusCode) of a Storage method that returned an error code.
$script:WinSimMiFailed = 1

$script:WinSimStorageMessages = @{
    1     = 'Not Supported'
    4     = 'Failed'
    5     = 'Invalid Parameter'
    4097  = 'Size Not Supported'
    40000 = 'Not enough available capacity'
    40005 = 'Invalid Parameter'
    41000 = 'The disk has not been initialized.'
    41001 = 'The disk has already been initialized.'
    41002 = 'The disk is read only.'
    41003 = 'The disk is offline.'
    42002 = 'The requested access path is already in use.'
    42004 = 'The partition is hidden.'
    42005 = 'The volume GUID path cannot be removed.'
    42006 = 'Cannot remove the drive letter of a boot or paging file partition.'
    42007 = 'The access path is not valid.'
}

# A failed MSFT_* method: CimException with id "StorageWMI <code>", as the Storage module reports it.
# The StorageWMI code lives only in MessageId (and so the FQID); StatusCode is CIM_Error.CIMStatusCode
# (PowerShell/MMI CimException.cs), the MI result of the call: MI_RESULT_FAILED (1) for every
# StorageWMI failure (learn.microsoft.com mi.h MI_Result), with NativeErrorCode Failed.
function New-WinSimStorageError([int]$Code, [string]$Class, [string]$Extended = '') {
    $message = $script:WinSimStorageMessages[$Code]
    if ($null -eq $message) { $message = 'Failed' }
    if ($Extended -ne '') {
        $message = "$message`n`nExtended information:`n$Extended`n`nActivity ID: {$([guid]::NewGuid())}"
    } elseif ($Code -eq 41000) {
        $message = "$message`nActivity ID: {$([guid]::NewGuid())}"
    }
    $category = 'NotSpecified'
    if ($Code -eq 5) { $category = 'InvalidArgument' }
    if ($Code -eq 1) { $category = 'InvalidOperation' }
    $exception = [CsiProxy.WinSim.CimException]::new($message, 'Failed', [uint32]$script:WinSimMiFailed, "StorageWMI $Code")
    $record = [System.Management.Automation.ErrorRecord]::new($exception, "StorageWMI $Code", $category, 'StorageWMI')
    $record.CategoryInfo.TargetName = 'StorageWMI'
    $record.CategoryInfo.TargetType = "ROOT/Microsoft/Windows/Storage/$Class"
    return $record
}
