# Bound parameters as plain JSON values; pipeline CIM objects are described by the entry's target instead.
function ConvertTo-WinSimLogValue($Value) {
    if ($null -eq $Value) { return $null }
    if ($Value -is [System.Management.Automation.SwitchParameter]) { return [bool]$Value }
    if ($Value -is [char]) { return [string]$Value }
    if ($Value -is [enum]) { return $Value.ToString() }
    if ($Value -is [string] -or $Value -is [bool] -or $Value -is [ValueType]) { return $Value }
    if ($Value -is [System.Collections.IEnumerable]) {
        return , @(foreach ($item in $Value) { ConvertTo-WinSimLogValue $item })
    }
    return [string]$Value
}

function ConvertTo-WinSimLogParameters([System.Collections.IDictionary]$Bound) {
    $skip = @('InputObject', 'Disk', 'Partition', 'Volume', 'CimSession', 'AsJob', 'ThrottleLimit')
    $out = [ordered]@{}
    foreach ($key in $Bound.Keys) {
        if ($skip -contains $key) { continue }
        if ($Bound[$key] -is [psobject] -and $Bound[$key].PSObject.BaseObject -is [CsiProxy.WinSim.SimCimInstance]) { continue }
        $out[$key] = ConvertTo-WinSimLogValue $Bound[$key]
    }
    return $out
}

# Appended under the call log's own lock, so seq is gapless across processes (a change logs
# while it still holds the state's lock, so its line follows its write).
function Add-WinSimCallLog([string]$Command, $Parameters, $Target, [double]$Start, [double]$End, [string]$Outcome) {
    $logLock = Enter-WinSimLock 'log'
    try { Write-WinSimCallLogLine $Command $Parameters $Target $Start $End $Outcome } finally { Exit-WinSimLock $logLock }
}

function Write-WinSimCallLogLine([string]$Command, $Parameters, $Target, [double]$Start, [double]$End, [string]$Outcome) {
    $path = Join-Path (Get-WinSimDir) 'calls.jsonl'
    $seq = 1
    $seqPath = Join-Path (Get-WinSimDir) 'calls.seq'
    if ([System.IO.File]::Exists($seqPath)) { $seq = [int64]([System.IO.File]::ReadAllText($seqPath)) + 1 }
    [System.IO.File]::WriteAllText($seqPath, [string]$seq)
    $entry = [ordered]@{
        seq        = $seq
        pid        = $PID
        command    = $Command
        parameters = $Parameters
        target     = $Target
        outcome    = $Outcome
        start      = $Start
        end        = $End
    }
    $line = (ConvertTo-Json -InputObject $entry -Depth 8 -Compress) + "`n"
    [System.IO.File]::AppendAllText($path, $line, [System.Text.UTF8Encoding]::new($false))
}
