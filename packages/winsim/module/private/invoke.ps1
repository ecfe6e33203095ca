# One simulated cmdlet call: fault check, then lock + read state + act + write + log, then emit.
# Output and errors are queued and written after the lock is released, because with
# ErrorActionPreference Stop a written error throws straight out of the cmdlet.
# A query (a Get- cmdlet) reads a snapshot of the state without holding the lock and takes it only
# to log: on Windows queries from several processes run at once, as most WMI providers, the Storage
# one's among them, are multithreaded (MTA, learn.microsoft.com/windows/win32/wmisdk/choosing-correct-registration).
# Writers replace state.json by a rename, so a snapshot is always whole. A query whose action
# would change the state (none does) is run again under the lock.
function Invoke-WinSimCommand {
    param(
        [System.Management.Automation.PSCmdlet]$Cmdlet,
        [System.Collections.IDictionary]$Bound,
        [System.Collections.IDictionary]$Target,
        [scriptblock]$Action,
        # For a proxy over a real cmdlet: the action neither reads nor changes simulated state.
        [switch]$Stateless,
        # For a compiled cmdlet's stand-in: writes each error, so the FQID ends in its class name.
        [System.Management.Automation.CommandInfo]$ErrorWriter
    )
    $wsCommand = $Cmdlet.MyInvocation.MyCommand.Name
    $wsStart = Get-WinSimNow
    $wsParams = ConvertTo-WinSimLogParameters $Bound
    # The lock only when a fault may apply (it uses up one of its times); faults.json is replaced by a rename too.
    $wsFault = $null
    if (Test-WinSimFaultAny $wsCommand $wsParams $Target) {
        $wsLock = Enter-WinSimLock
        try { $wsFault = Use-WinSimFault $wsCommand $wsParams $Target } finally { Exit-WinSimLock $wsLock }
    }
    $wsKind = ''
    if ($null -ne $wsFault) { $wsKind = [string]$wsFault.action }
    switch ($wsKind) {
        'kill' {
            $wsLock = Enter-WinSimLock
            try { Add-WinSimCallLog $wsCommand $wsParams $Target $wsStart (Get-WinSimNow) 'killed' } finally { Exit-WinSimLock $wsLock }
            [Environment]::Exit(137)
        }
        # Outside the lock, so other processes keep working while this call hangs.
        'delay' { Wait-WinSimFault $wsFault }
        'noise' { Invoke-WinSimFaultNoise $wsFault $Cmdlet $wsCommand }
        'garbage' {
            $text = 'winsim garbage {"not":"a frame"} ' + $wsCommand
            if ($null -ne $wsFault.PSObject.Properties['text'] -and $null -ne $wsFault.text) { $text = [string]$wsFault.text }
            [Console]::Out.WriteLine($text)
            [Console]::Out.Flush()
        }
    }
    # A proxy over a real cmdlet (Get-Item, Test-Path) is no CIM call.
    Wait-WinSimLatency $wsCommand (-not $Stateless)
    $ctx = [pscustomobject]@{ State = $null; Changed = $false; Items = [System.Collections.Generic.List[object]]::new() }
    $wsOutcome = 'ok'
    $wsDone = $false
    if ($wsKind -ne 'error' -and -not $Stateless -and $wsCommand.StartsWith('Get-')) {
        $ctx.State = Read-WinSimState
        $null = & $Action $ctx
        $wsDone = -not $ctx.Changed
        if (-not $wsDone) { $ctx = [pscustomobject]@{ State = $null; Changed = $false; Items = [System.Collections.Generic.List[object]]::new() } }
    }
    if ($wsDone) {
        # A query: logged under the call log's lock only.
        foreach ($item in $ctx.Items) { if ($item -is [System.Management.Automation.ErrorRecord]) { $wsOutcome = 'error' } }
        Add-WinSimCallLog $wsCommand $wsParams $Target $wsStart (Get-WinSimNow) $wsOutcome
    } else {
        $wsLock = Enter-WinSimLock
        try {
            if ($wsKind -eq 'error') {
                $ctx.Items.Add((New-WinSimFaultError $wsFault))
                $wsOutcome = 'fault'
            } else {
                if (-not $Stateless) { $ctx.State = Read-WinSimState }
                $null = & $Action $ctx
                if ($ctx.Changed) { Write-WinSimState $ctx.State }
                foreach ($item in $ctx.Items) { if ($item -is [System.Management.Automation.ErrorRecord]) { $wsOutcome = 'error' } }
            }
            Add-WinSimCallLog $wsCommand $wsParams $Target $wsStart (Get-WinSimNow) $wsOutcome
        } finally {
            Exit-WinSimLock $wsLock
        }
    }
    # The change is made and logged; the caller hears nothing until the sleep ends (or it kills us).
    if ($wsKind -eq 'hangAfter') { Wait-WinSimFault $wsFault }
    $wsThrow = $wsKind -eq 'error' -and (Test-WinSimFaultTerminating $wsFault)
    foreach ($item in $ctx.Items) {
        if ($item -is [System.Management.Automation.ErrorRecord]) {
            if ($wsThrow) { $Cmdlet.ThrowTerminatingError($item) }
            if ($null -ne $ErrorWriter) { & $ErrorWriter -Record $item } else { $Cmdlet.WriteError($item) }
        } else { $Cmdlet.WriteObject($item) }
    }
}

# Identifies a piped CIM object in the call log and for fault matching.
function Get-WinSimTarget($InputObject) {
    $target = [ordered]@{}
    if ($null -eq $InputObject) { return $target }
    $names = $InputObject.PSObject.TypeNames
    if ($names -contains 'Microsoft.Management.Infrastructure.CimInstance#MSFT_Disk') {
        $target['DiskNumber'] = $InputObject.Number
        $target['Number'] = $InputObject.Number
    } elseif ($names -contains 'Microsoft.Management.Infrastructure.CimInstance#MSFT_Partition') {
        $target['DiskNumber'] = $InputObject.DiskNumber
        $target['PartitionNumber'] = $InputObject.PartitionNumber
        $target['Offset'] = $InputObject.Offset
    } elseif ($names -contains 'Microsoft.Management.Infrastructure.CimInstance#MSFT_Volume') {
        $target['UniqueId'] = $InputObject.UniqueId
    }
    return $target
}
