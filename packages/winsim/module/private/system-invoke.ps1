# One simulated CimCmdlets/service cmdlet call, as Invoke-WinSimCommand does for Storage, with two
# differences: errors are written through the real command class (so the FullyQualifiedErrorId ends in
# e.g. ",Microsoft.PowerShell.Commands.StopServiceCommand"), and an $After block runs outside the lock
# (waiting for a service), so the logged call brackets the wait.
function Invoke-WinSimSystemCommand {
    param(
        [System.Management.Automation.PSCmdlet]$Cmdlet,
        [System.Collections.IDictionary]$Bound,
        [System.Collections.IDictionary]$Target,
        [scriptblock]$Action,
        [scriptblock]$After
    )
    $wsCommand = $Cmdlet.MyInvocation.MyCommand.Name
    $wsStart = Get-WinSimNow
    $wsParams = ConvertTo-WinSimLogParameters $Bound
    $wsLock = Enter-WinSimLock
    try { $wsFault = Use-WinSimFault $wsCommand $wsParams $Target } finally { Exit-WinSimLock $wsLock }
    $wsKind = if ($null -ne $wsFault) { [string]$wsFault.action } else { '' }
    switch ($wsKind) {
        'kill' {
            $wsLock = Enter-WinSimLock
            try { Add-WinSimCallLog $wsCommand $wsParams $Target $wsStart (Get-WinSimNow) 'killed' } finally { Exit-WinSimLock $wsLock }
            [Environment]::Exit(137)
        }
        'delay' { Wait-WinSimFault $wsFault }
        'noise' { Invoke-WinSimFaultNoise $wsFault $Cmdlet $wsCommand }
        'garbage' {
            $text = 'winsim garbage {"not":"a frame"} ' + $wsCommand
            if ($null -ne $wsFault.PSObject.Properties['text'] -and $null -ne $wsFault.text) { $text = [string]$wsFault.text }
            [Console]::Out.WriteLine($text)
            [Console]::Out.Flush()
        }
    }
    # Of these, only Get-CimInstance is a CIM call; the service cmdlets talk to the SCM.
    Wait-WinSimLatency $wsCommand ($wsCommand -eq 'Get-CimInstance')
    $ctx = [pscustomobject]@{ State = $null; Changed = $false; Items = [System.Collections.Generic.List[object]]::new(); Plan = [System.Collections.Generic.List[object]]::new() }
    $wsOutcome = 'ok'
    if ($wsKind -eq 'error') {
        $ctx.Items.Add((New-WinSimFaultError $wsFault))
        $wsOutcome = 'fault'
    } else {
        $wsLock = Enter-WinSimLock
        try {
            $ctx.State = Read-WinSimState
            $system = Get-WinSimSystem $ctx
            Step-WinSimServices $ctx $system (Get-WinSimNow)
            $null = & $Action $ctx $system
            if ($ctx.Changed) { Write-WinSimState $ctx.State }
        } finally { Exit-WinSimLock $wsLock }
        if ($null -ne $After) { $null = & $After $ctx }
        foreach ($item in $ctx.Items) { if ($item -is [System.Management.Automation.ErrorRecord]) { $wsOutcome = 'error' } }
    }
    $wsLock = Enter-WinSimLock
    try { Add-WinSimCallLog $wsCommand $wsParams $Target $wsStart (Get-WinSimNow) $wsOutcome } finally { Exit-WinSimLock $wsLock }
    $writer = $script:WinSimErrorWriters[$wsCommand]
    $wsThrow = $wsKind -eq 'error' -and (Test-WinSimFaultTerminating $wsFault)
    foreach ($item in $ctx.Items) {
        if ($item -is [System.Management.Automation.ErrorRecord]) {
            if ($wsThrow) { $Cmdlet.ThrowTerminatingError($item) }
            & $writer -Record $item
        } else { $Cmdlet.WriteObject($item) }
    }
}

# Runs $Body under the lock with fresh state (for the waits and stops that happen after the main action).
function Use-WinSimSystemState([scriptblock]$Body) {
    $lock = Enter-WinSimLock
    try {
        $ctx = [pscustomobject]@{ State = (Read-WinSimState); Changed = $false; Items = $null }
        $system = Get-WinSimSystem $ctx
        $now = Get-WinSimNow
        Step-WinSimServices $ctx $system $now
        $result = & $Body $ctx $system $now
        if ($ctx.Changed) { Write-WinSimState $ctx.State }
        return $result
    } finally { Exit-WinSimLock $lock }
}

# The identity of a piped ServiceController, for the call log and fault matching.
function Get-WinSimServiceTarget($InputObject) {
    $target = [ordered]@{}
    $first = @($InputObject)[0]
    if ($null -ne $first -and $null -ne $first.PSObject.Properties['ServiceName']) { $target['Name'] = [string]$first.ServiceName }
    return $target
}
