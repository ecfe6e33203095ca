# Waits as the service cmdlets do: poll until the target status; any status other than the pending one
# fails ("StartServiceFailed"/"StopServiceFailed"); a warning every 2 s while it takes.
function Wait-WinSimServiceStatus($Cmdlet, $Ctx, [string]$Name, [int]$Want, [int]$Pending, [string]$Verb, [bool]$PassThru) {
    $label = $Name
    $nextWarning = [DateTime]::UtcNow.AddSeconds(2)
    while ($true) {
        $seen = Use-WinSimSystemState { param($c, $system, $now) $s = Find-WinSimService $system $Name; if ($null -ne $s) { @{ svc = $s; status = (Get-WinSimServiceStatus $s $now); now = $now } } }
        if ($null -eq $seen) { $Ctx.Items.Add((New-WinSimServiceNotFound $Name)); return $false }
        $label = Format-WinSimServiceLabel $seen.svc
        if ($seen.status -eq $Want) {
            if ($PassThru) { $Ctx.Items.Add((New-WinSimServiceObject $seen.svc $seen.now)) }
            return $true
        }
        if ($seen.status -ne $Pending) {
            $id = if ($Verb -eq 'start') { 'StartServiceFailed' } else { 'StopServiceFailed' }
            $category = if ($Verb -eq 'start') { 'OpenError' } else { 'CloseError' }
            $Ctx.Items.Add((New-WinSimServiceError $id "Service '$label' $Verb failed." $category (New-WinSimServiceObject $seen.svc $seen.now) $Name))
            return $false
        }
        if ([DateTime]::UtcNow -ge $nextWarning) {
            $ing = if ($Verb -eq 'start') { 'start' } else { 'stop' }
            $Cmdlet.WriteWarning("Waiting for service '$label' to $ing...")
            $nextWarning = [DateTime]::UtcNow.AddSeconds(2)
        }
        Start-Sleep -Milliseconds 50
    }
}

# ServiceController.WaitForStatus(Stopped, timeout) for a dependent .NET stops on a forced stop.
function Wait-WinSimServiceStopped([string]$Name, [int]$TimeoutMs) {
    $deadline = [DateTime]::UtcNow.AddMilliseconds($TimeoutMs)
    while ($true) {
        $status = Get-WinSimServiceStatusNow $Name
        if ($status -eq 1 -or $status -eq 0) { return $true }
        if ([DateTime]::UtcNow -ge $deadline) { return $false }
        Start-Sleep -Milliseconds 50
    }
}

# What Stop-Service -Force gets from ServiceController.Stop(): the running dependents are stopped
# first, recursively (so deepest first), each waited for up to 30 s; then the service itself.
function Stop-WinSimServiceTree($Ctx, [string]$Name, [bool]$WithDependents) {
    if ($WithDependents) {
        $deps = Use-WinSimSystemState { param($c, $system, $now) , @((Get-WinSimServiceDependents $system $Name) | Where-Object { (Get-WinSimServiceStatus $_ $now) -ne 1 } | ForEach-Object { [string]$_.name }) }
        foreach ($dep in @($deps)) {
            if (-not (Stop-WinSimServiceTree $Ctx $dep $true)) { return $false }
            if (-not (Wait-WinSimServiceStopped $dep 30000)) {
                $inner = [System.ServiceProcess.TimeoutException]::new('Time out has expired and the operation has not been completed.')
                $Ctx.Items.Add((New-WinSimStopError $Name ([System.InvalidOperationException]::new("Cannot stop $Name service on computer '.'.", $inner))))
                return $false
            }
        }
    }
    $result = Use-WinSimSystemState { param($c, $system, $now) $s = Find-WinSimService $system $Name; if ($null -eq $s) { Format-WinSimScmError 1060 } else { Stop-WinSimService $c $s $now } }
    if ($result -eq '' -or $result.StartsWith('1062|')) { return $true }
    $Ctx.Items.Add((New-WinSimStopError $Name (New-WinSimControllerException 'stop' $Name $result)))
    return $false
}

function New-WinSimStopError([string]$Name, [Exception]$Inner) {
    $found = Use-WinSimSystemState { param($c, $system, $now) $s = Find-WinSimService $system $Name; if ($null -ne $s) { @{ svc = $s; now = $now } } }
    $label = if ($null -ne $found) { Format-WinSimServiceLabel $found.svc } else { $Name }
    $target = if ($null -ne $found) { New-WinSimServiceObject $found.svc $found.now } else { $Name }
    return (New-WinSimServiceError 'CouldNotStopService' "Service '$label' cannot be stopped due to the following error: $($Inner.Message)" 'CloseError' $target $Name $Inner)
}
