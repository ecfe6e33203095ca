# ServiceController.Start() and friends call back into the module through static delegates.
# Start() is logged as "ServiceController.Start" with { Name }, and faults can target it.
function Invoke-WinSimServiceStartMethod([string]$Name) {
    $start = Get-WinSimNow
    $params = [ordered]@{ Name = $Name }
    $lock = Enter-WinSimLock
    try { $fault = Use-WinSimFault 'ServiceController.Start' $params $null } finally { Exit-WinSimLock $lock }
    $kind = if ($null -ne $fault) { [string]$fault.action } else { '' }
    if ($kind -eq 'kill') {
        $lock = Enter-WinSimLock
        try { Add-WinSimCallLog 'ServiceController.Start' $params ([ordered]@{}) $start (Get-WinSimNow) 'killed' } finally { Exit-WinSimLock $lock }
        [Environment]::Exit(137)
    }
    if ($kind -eq 'delay') { Wait-WinSimFault $fault }
    $lock = Enter-WinSimLock
    try {
        if ($kind -eq 'error') {
            $spec = Get-WinSimField $fault 'error' ([pscustomobject]@{})
            $result = "$([int](Get-WinSimField $spec 'statusCode' 1053))|$([string](Get-WinSimField $spec 'message' 'The service did not respond to the start or control request in a timely fashion.'))"
            $outcome = 'fault'
        } else {
            $ctx = [pscustomobject]@{ State = (Read-WinSimState); Changed = $false; Items = $null }
            $system = Get-WinSimSystem $ctx
            $now = Get-WinSimNow
            Step-WinSimServices $ctx $system $now
            $svc = Find-WinSimService $system $Name
            $result = if ($null -eq $svc) { Format-WinSimScmError 1060 } else { Start-WinSimService $ctx $system $svc $now ([ref]0.0) }
            if ($ctx.Changed) { Write-WinSimState $ctx.State }
            $outcome = if ($result -eq '') { 'ok' } else { 'error' }
        }
        Add-WinSimCallLog 'ServiceController.Start' $params ([ordered]@{}) $start (Get-WinSimNow) $outcome
    } finally { Exit-WinSimLock $lock }
    return $result
}

function Get-WinSimServiceStatusNow([string]$Name) {
    return (Use-WinSimSystemSnapshot { param($system, $now) $s = Find-WinSimService $system $Name; if ($null -eq $s) { 0 } else { Get-WinSimServiceStatus $s $now } })
}

function Get-WinSimRelatedServices([string]$Name, [string]$Kind) {
    $found = Use-WinSimSystemSnapshot {
        param($system, $now)
        $svc = Find-WinSimService $system $Name
        if ($null -eq $svc) { return , @() }
        $list = if ($Kind -eq 'dependents') { Get-WinSimServiceDependents $system ([string]$svc.name) } else { Get-WinSimServiceRequired $system $svc }
        return , @(foreach ($s in $list) { New-WinSimServiceObject $s $now })
    }
    return , [object[]]@($found)
}

[CsiProxy.WinSim.SimServiceController]::Starter = [Func[string, string]] { param($name) Invoke-WinSimServiceStartMethod $name }
[CsiProxy.WinSim.SimServiceController]::StatusReader = [Func[string, int]] { param($name) Get-WinSimServiceStatusNow $name }
[CsiProxy.WinSim.SimServiceController]::Related = [Func[string, string, object[]]] { param($name, $kind) Get-WinSimRelatedServices $name $kind }
