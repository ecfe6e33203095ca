# Simulated CIM round-trip time (ScenarioSpec.cimLatencyMs, latency.json): a Storage, iSCSI or SMB
# cmdlet on Windows is a call into a WMI provider, which takes tens of milliseconds; the
# simulator's own work takes a few. The wait is outside the lock, as provider calls from several
# processes overlap on Windows. Read once per process and again when the file changes.
$script:WinSimLatency = $null
$script:WinSimLatencyStamp = [DateTime]::MinValue

function Get-WinSimLatencyMs([string]$Command, [bool]$Cim) {
    $path = Join-Path (Get-WinSimDir) 'latency.json'
    if (-not [System.IO.File]::Exists($path)) { return 0 }
    $stamp = [System.IO.File]::GetLastWriteTimeUtc($path)
    if ($null -eq $script:WinSimLatency -or $stamp -ne $script:WinSimLatencyStamp) {
        $script:WinSimLatency = ConvertFrom-Json -InputObject ([System.IO.File]::ReadAllText($path))
        $script:WinSimLatencyStamp = $stamp
    }
    $commands = Get-WinSimField $script:WinSimLatency 'commands'
    if ($null -ne $commands -and $null -ne $commands.PSObject.Properties[$Command]) { return [int]$commands.$Command }
    if ($Cim) { return [int](Get-WinSimField $script:WinSimLatency 'defaultMs' 0) }
    return 0
}

function Wait-WinSimLatency([string]$Command, [bool]$Cim) {
    $ms = Get-WinSimLatencyMs $Command $Cim
    if ($ms -gt 0) { Start-Sleep -Milliseconds $ms }
}
