function Test-WinSimFaultMatch($Fault, [string]$Command, [System.Collections.IDictionary]$Parameters, [System.Collections.IDictionary]$Target) {
    if ($Fault.command -ne '*' -and $Fault.command -ne $Command) { return $false }
    if ($null -ne $Fault.PSObject.Properties['times'] -and [int]$Fault.times -eq 0) { return $false }
    $match = $null
    if ($null -ne $Fault.PSObject.Properties['match']) { $match = $Fault.match }
    if ($null -eq $match) { return $true }
    foreach ($p in $match.PSObject.Properties) {
        $actual = $null
        if ($Parameters.Contains($p.Name)) { $actual = $Parameters[$p.Name] }
        elseif ($null -ne $Target -and $Target.Contains($p.Name)) { $actual = $Target[$p.Name] }
        else { return $false }
        $wanted = [string]$p.Value
        $hit = $false
        foreach ($item in @($actual)) { if ([string]$item -eq $wanted) { $hit = $true } }
        if (-not $hit) { return $false }
    }
    return $true
}

# Whether any fault may apply, read without the lock: a call with none to apply never takes it for them.
function Test-WinSimFaultAny([string]$Command, [System.Collections.IDictionary]$Parameters, [System.Collections.IDictionary]$Target) {
    foreach ($fault in @(Read-WinSimJson 'faults.json' @())) {
        if (Test-WinSimFaultMatch $fault $Command $Parameters $Target) { return $true }
    }
    return $false
}

# Called under the lock: takes the first matching fault and uses up one of its times.
function Use-WinSimFault([string]$Command, [System.Collections.IDictionary]$Parameters, [System.Collections.IDictionary]$Target) {
    $faults = @(Read-WinSimJson 'faults.json' @())
    for ($i = 0; $i -lt $faults.Count; $i++) {
        $fault = $faults[$i]
        if (-not (Test-WinSimFaultMatch $fault $Command $Parameters $Target)) { continue }
        if ($null -ne $fault.PSObject.Properties['times'] -and [int]$fault.times -gt 0) {
            $fault.times = [int]$fault.times - 1
            Write-WinSimJson 'faults.json' $faults
        }
        return $fault
    }
    return $null
}

# An error fault marked terminating is thrown, as a cmdlet's own terminating errors are; otherwise written.
function Test-WinSimFaultTerminating($Fault) {
    $spec = Get-WinSimField $Fault 'error' $null
    if ($null -eq $spec) { return $false }
    return [bool](Get-WinSimField $spec 'terminating' $false)
}

# The MI_Result number of a NativeErrorCode name (the enum's values are MI_Result's); unknown names are Failed.
function Get-WinSimMiResult([string]$Native) {
    $code = [Microsoft.Management.Infrastructure.NativeErrorCode]::Failed
    if (-not [Enum]::TryParse([Microsoft.Management.Infrastructure.NativeErrorCode], $Native, $true, [ref]$code)) { $code = [Microsoft.Management.Infrastructure.NativeErrorCode]::Failed }
    return [uint32]$code
}

function New-WinSimFaultError($Fault) {
    $spec = Get-WinSimField $Fault 'error' ([pscustomobject]@{})
    $get = { param($name, $default) if ($null -ne $spec.PSObject.Properties[$name] -and $null -ne $spec.$name) { $spec.$name } else { $default } }
    $message = & $get 'message' 'Failed'
    $errorId = & $get 'errorId' 'StorageWMI 4'
    $category = & $get 'category' 'NotSpecified'
    $type = & $get 'exceptionType' 'Microsoft.Management.Infrastructure.CimException'
    $exception = $null
    switch ($type) {
        'Microsoft.Management.Infrastructure.CimException' {
            # StatusCode defaults to the MI result the NativeErrorCode names (Failed = 1), as on
            # Windows; the code in errorId (e.g. StorageWMI 4) stays in MessageId and the FQID.
            $native = [string](& $get 'nativeErrorCode' 'Failed')
            $exception = [CsiProxy.WinSim.CimException]::new($message, $native, [uint32](& $get 'statusCode' (Get-WinSimMiResult $native)), $errorId)
        }
        'Microsoft.PowerShell.Cmdletization.Cim.CimJobException' { $exception = [Microsoft.PowerShell.Cmdletization.Cim.CimJobException]::new($message) }
        'System.ComponentModel.Win32Exception' { $exception = [System.ComponentModel.Win32Exception]::new([int](& $get 'statusCode' 1), $message) }
        default { $exception = [System.Exception]::new($message) }
    }
    $record = [System.Management.Automation.ErrorRecord]::new($exception, $errorId, [System.Management.Automation.ErrorCategory]$category, 'StorageWMI')
    return $record
}

# Everything but an error runs before the real work; kill ends the process as a crash would.
function Invoke-WinSimFaultNoise($Fault, [System.Management.Automation.PSCmdlet]$Cmdlet, [string]$Command) {
    $kinds = @('warning', 'progress', 'host', 'verbose', 'information')
    if ($null -ne $Fault.PSObject.Properties['noise'] -and $null -ne $Fault.noise) { $kinds = @($Fault.noise) }
    foreach ($kind in $kinds) {
        switch ($kind) {
            'warning' { $Cmdlet.WriteWarning("winsim: simulated warning from $Command") }
            'progress' { $Cmdlet.WriteProgress([System.Management.Automation.ProgressRecord]::new(1, $Command, 'winsim: simulated progress')) }
            'host' { Write-Host "winsim: simulated host output from $Command" }
            'verbose' { $Cmdlet.WriteVerbose("winsim: simulated verbose output from $Command") }
            'information' { $Cmdlet.WriteInformation("winsim: simulated information from $Command", @('winsim')) }
        }
    }
}

# delay and hangAfter: sleep delayMs, or, with a gate (sim.block), mark the gate met and hold the
# call until the test releases it. A host removed meanwhile ends the wait too.
function Wait-WinSimFault($Fault) {
    $gate = [string](Get-WinSimField $Fault 'gate' '')
    if ($gate -eq '') { Start-Sleep -Milliseconds ([int](Get-WinSimField $Fault 'delayMs' 1000)); return }
    $gates = Join-Path (Get-WinSimDir) 'gates'
    $null = [System.IO.Directory]::CreateDirectory($gates)
    [System.IO.File]::WriteAllText((Join-Path $gates "$gate.met"), [string]$PID)
    $released = Join-Path $gates "$gate.released"
    while (-not [System.IO.File]::Exists($released) -and [System.IO.Directory]::Exists($gates)) { Start-Sleep -Milliseconds 10 }
}
