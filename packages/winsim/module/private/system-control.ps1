# What the Service Control Manager does on a start or stop request. Each returns "" when the request
# was accepted, else "<Win32 code>|<message>" (the codes and texts StartService/ControlService give).
$script:WinSimScmMessages = @{
    1052 = 'The requested control is not valid for this service.'
    1056 = 'An instance of the service is already running.'
    1058 = 'The service cannot be started, either because it is disabled or because it has no enabled devices associated with it.'
    1060 = 'The specified service does not exist as an installed service.'
    1061 = 'The service cannot accept control messages at this time.'
    1062 = 'The service has not been started.'
    1068 = 'The dependency service or group failed to start.'
    1075 = 'The dependency service does not exist or has been marked for deletion.'
}

function Format-WinSimScmError([int]$Code) { return "$Code|$($script:WinSimScmMessages[$Code])" }

# Starts the service and, as the SCM does, the stopped services it depends on; the service runs once
# they all run plus its own start delay. Returns the result and, through $Ready, when it will run.
function Start-WinSimService($Ctx, $System, $Service, [double]$Now, [ref]$Ready) {
    $status = Get-WinSimServiceStatus $Service $Now
    if ([int]$Service.startType -eq 4) { return (Format-WinSimScmError 1058) }
    if ($status -ne 1) { return (Format-WinSimScmError 1056) }
    $depsReady = $Now
    foreach ($name in @($Service.dependsOn)) {
        $dep = Find-WinSimService $System ([string]$name)
        if ($null -eq $dep) { return (Format-WinSimScmError 1075) }
        $depStatus = Get-WinSimServiceStatus $dep $Now
        $at = $Now
        if ($depStatus -eq 1) {
            if ([bool]$dep.failsToStart) { return (Format-WinSimScmError 1068) }
            $inner = [ref]0.0
            $r = Start-WinSimService $Ctx $System $dep $Now $inner
            if ($r -ne '') { return (Format-WinSimScmError 1068) }
            $at = $inner.Value
        } elseif ($depStatus -eq 2 -or $depStatus -eq 5) {
            $t = Get-WinSimField $dep 'transition'
            $at = if ($null -ne $t -and [int]$t.to -eq 4) { [double]$t.since + [double]$t.delayMs } else { $script:WinSimNever }
        } elseif ($depStatus -eq 3) {
            $at = $script:WinSimNever
        }
        if ($at -gt $depsReady) { $depsReady = $at }
    }
    $delay = [Math]::Min($script:WinSimNever, ($depsReady - $Now) + [double]$Service.startDelayMs)
    $to = if ([bool]$Service.failsToStart) { 1 } else { 4 }
    $Service.transition = [pscustomobject][ordered]@{ via = 2; to = $to; since = $Now; delayMs = $delay }
    $Ctx.Changed = $true
    $Ready.Value = $Now + $delay
    return ''
}

# A stop request: Running or Paused services move through StopPending to Stopped.
function Stop-WinSimService($Ctx, $Service, [double]$Now) {
    $status = Get-WinSimServiceStatus $Service $Now
    if ($status -eq 1) { return (Format-WinSimScmError 1062) }
    if ($status -ne 4 -and $status -ne 7) { return (Format-WinSimScmError 1061) }
    if (-not [bool]$Service.canStop) { return (Format-WinSimScmError 1052) }
    $Service.status = $status
    $Service.transition = [pscustomobject][ordered]@{ via = 3; to = 1; since = $Now; delayMs = [double]$Service.stopDelayMs }
    $Ctx.Changed = $true
    return ''
}
