# The System part of state.json: the BIOS and the services. A state written without it (a scenario
# that left `system` out) gets module/system/defaults.json, the same defaults the TypeScript side uses.
$script:WinSimSystemDefaultsPath = Join-Path (Join-Path (Split-Path -Parent $PSScriptRoot) 'system') 'defaults.json'

$script:WinSimServiceDefaults = [ordered]@{
    displayName = ''; status = 1; startType = 3; serviceType = 16; dependsOn = @(); canStop = $true
    canPauseAndContinue = $false; startDelayMs = 0; stopDelayMs = 0; failsToStart = $false; transition = $null; changedAt = $null
}

# Far enough in the future to mean "never" while staying a finite JSON number.
$script:WinSimNever = 1e15

function Get-WinSimSystem($Ctx) {
    $state = $Ctx.State
    if ($null -eq $state.PSObject.Properties['system'] -or $null -eq $state.system) {
        $defaults = ConvertFrom-Json -InputObject ([System.IO.File]::ReadAllText($script:WinSimSystemDefaultsPath))
        $state | Add-Member -NotePropertyName 'system' -NotePropertyValue $defaults -Force
        $Ctx.Changed = $true
    }
    $system = $state.system
    if ($null -eq $system.PSObject.Properties['bios']) { $system | Add-Member -NotePropertyName 'bios' -NotePropertyValue $null }
    if ($null -eq $system.PSObject.Properties['services'] -or $null -eq $system.services) {
        $system | Add-Member -NotePropertyName 'services' -NotePropertyValue @() -Force
    }
    $system.services = @($system.services | Where-Object { $null -ne $_ })
    foreach ($svc in $system.services) { Add-WinSimDefaults $svc $script:WinSimServiceDefaults }
    return $system
}

# A service's status now: a transition shows its pending state until its delay has passed.
function Get-WinSimServiceStatus($Service, [double]$Now) {
    $t = Get-WinSimField $Service 'transition'
    if ($null -eq $t) { return [int]$Service.status }
    if ($Now -ge [double]$t.since + [double]$t.delayMs) { return [int]$t.to }
    return [int]$t.via
}

# Folds finished transitions into the stored status, so state.json reads plainly afterwards.
function Step-WinSimServices($Ctx, $System, [double]$Now) {
    foreach ($svc in $System.services) {
        $t = Get-WinSimField $svc 'transition'
        if ($null -ne $t -and $Now -ge [double]$t.since + [double]$t.delayMs) {
            $svc.status = [int]$t.to
            $svc.changedAt = [double]$t.since + [double]$t.delayMs
            $svc.transition = $null
            $Ctx.Changed = $true
        }
    }
}

function Find-WinSimService($System, [string]$Name) {
    foreach ($svc in $System.services) { if ([string]::Equals([string]$svc.name, $Name, [StringComparison]::OrdinalIgnoreCase)) { return $svc } }
    return $null
}

# Direct dependents: the services that list this one in their dependsOn.
function Get-WinSimServiceDependents($System, [string]$Name) {
    return , @($System.services | Where-Object { @($_.dependsOn) -contains $Name } | Sort-Object { [string]$_.name })
}

function Get-WinSimServiceRequired($System, $Service) {
    return , @(foreach ($n in @($Service.dependsOn)) { $s = Find-WinSimService $System ([string]$n); if ($null -ne $s) { $s } })
}

# Reads the system part outside any cmdlet call (the controller's lazy members): lock, read, release.
function Use-WinSimSystemSnapshot([scriptblock]$Read) {
    $lock = Enter-WinSimLock
    try {
        $ctx = [pscustomobject]@{ State = (Read-WinSimState); Changed = $false; Items = $null }
        $system = Get-WinSimSystem $ctx
        return (& $Read $system (Get-WinSimNow))
    } finally { Exit-WinSimLock $lock }
}
