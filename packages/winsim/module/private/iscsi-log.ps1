# Secrets never reach the call log or fault matching: secret parameters are logged as [REDACTED].
function Get-WinSimIscsiLogBound([System.Collections.IDictionary]$Bound) {
    $copy = [ordered]@{}
    foreach ($key in $Bound.Keys) {
        if ($key -like '*Secret') { $copy[$key] = '[REDACTED]' } else { $copy[$key] = $Bound[$key] }
    }
    return $copy
}

# Identifies a piped iSCSI object in the call log and for fault matching.
function Get-WinSimIscsiTarget($InputObject) {
    $found = [ordered]@{}
    if ($null -eq $InputObject) { return $found }
    $first = @($InputObject)[0]
    if ($null -eq $first) { return $found }
    foreach ($name in @('SessionIdentifier', 'ConnectionIdentifier', 'NodeAddress', 'TargetPortalAddress', 'TargetPortalPortNumber', 'Number')) {
        $p = $first.PSObject.Properties[$name]
        if ($null -ne $p -and $null -ne $p.Value) { $found[$name] = $p.Value }
    }
    return $found
}
