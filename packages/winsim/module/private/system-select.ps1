# Resolves -Name / -DisplayName / -InputObject with -Include / -Exclude as the service cmdlets do:
# wildcards allowed; a plain name that matches nothing is a NoServiceFoundForGivenName error; a plain
# name may also be a display name (the SCM resolves it); results in key-name order, once each.
function Select-WinSimServices($Ctx, $System, [System.Collections.IDictionary]$Bound) {
    $all = @($System.services | Sort-Object { [string]$_.name })
    $found = [System.Collections.Generic.List[object]]::new()
    $add = { param($s) if (-not $found.Contains($s)) { $found.Add($s) } }
    if ($Bound.ContainsKey('InputObject')) {
        foreach ($o in @($Bound['InputObject'])) {
            $name = [string]$o.ServiceName
            $svc = Find-WinSimService $System $name
            if ($null -eq $svc) { $Ctx.Items.Add((New-WinSimServiceNotFound $name)) } else { & $add $svc }
        }
    } elseif ($Bound.ContainsKey('DisplayName')) {
        foreach ($value in @($Bound['DisplayName'])) {
            $hits = @($all | Where-Object { Test-WinSimLike ([string]$_.displayName) $value })
            if ($hits.Count -eq 0 -and -not [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($value)) {
                $Ctx.Items.Add((New-WinSimServiceNotFound $value -ByDisplayName))
            }
            foreach ($h in $hits) { & $add $h }
        }
    } else {
        $names = if ($Bound.ContainsKey('Name')) { @($Bound['Name']) } else { @('*') }
        foreach ($value in $names) {
            if ([System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($value)) {
                foreach ($h in @($all | Where-Object { Test-WinSimLike ([string]$_.name) $value })) { & $add $h }
                continue
            }
            $svc = Find-WinSimService $System $value
            if ($null -eq $svc) { $svc = $all | Where-Object { [string]::Equals([string]$_.displayName, $value, [StringComparison]::OrdinalIgnoreCase) } | Select-Object -First 1 }
            if ($null -eq $svc) { $Ctx.Items.Add((New-WinSimServiceNotFound $value)) } else { & $add $svc }
        }
    }
    $result = @($found)
    if ($Bound.ContainsKey('Include')) {
        $result = @($result | Where-Object { $n = [string]$_.name; @($Bound['Include'] | Where-Object { Test-WinSimLike $n $_ }).Count -gt 0 })
    }
    if ($Bound.ContainsKey('Exclude')) {
        $result = @($result | Where-Object { $n = [string]$_.name; @($Bound['Exclude'] | Where-Object { Test-WinSimLike $n $_ }).Count -eq 0 })
    }
    return , $result
}
