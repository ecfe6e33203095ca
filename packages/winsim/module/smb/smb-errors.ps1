# Win32 errors as the SmbShare module reports them (windows-cmdlets.md §3, §8): CimException, "Windows System Error <n>".
$script:WinSimSmbMessages = @{
    5    = 'Access is denied.'
    53   = 'The network path was not found.'
    67   = 'The network name cannot be found.'
    85   = 'The local device name is already in use.'
    87   = 'The parameter is incorrect.'
    1219 = 'Multiple connections to a server or shared resource by the same user, using more than one user name, are not allowed. Disconnect all previous connections to the server or shared resource and try again.'
    1326 = 'The user name or password is incorrect.'
    2250 = 'This network connection does not exist.'
}

# The Win32 code lives in MessageId (so the FQID); StatusCode is CIM_Error.CIMStatusCode, the MI result
# MI_RESULT_FAILED (1), as for Storage errors (MMI CimException.cs; windows-fidelity-review F7).
function New-WinSimSmbError([int]$Code) {
    $message = $script:WinSimSmbMessages[$Code]
    if ($null -eq $message) { $message = 'Generic failure' }
    $exception = [CsiProxy.WinSim.CimException]::new($message, 'Failed', [uint32]1, "Windows System Error $Code")
    $record = [System.Management.Automation.ErrorRecord]::new($exception, "Windows System Error $Code", 'NotSpecified', 'MSFT_SmbGlobalMapping')
    $record.CategoryInfo.TargetName = 'MSFT_SmbGlobalMapping'
    $record.CategoryInfo.TargetType = 'ROOT/Microsoft/Windows/SMB/MSFT_SmbGlobalMapping'
    return $record
}

# Bound parameters for the call log: the credential is logged as its user name only, never the password.
function ConvertTo-WinSimSmbLogBound([System.Collections.IDictionary]$Bound) {
    $copy = [ordered]@{}
    foreach ($key in $Bound.Keys) {
        if ($Bound[$key] -is [pscredential]) { $copy[$key] = $Bound[$key].UserName } else { $copy[$key] = $Bound[$key] }
    }
    return $copy
}
