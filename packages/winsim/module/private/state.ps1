# The simulated host lives in CSI_WINSIM_DIR so that every pwsh process (pool or spawn) sees one machine.
function Get-WinSimDir {
    $dir = $env:CSI_WINSIM_DIR
    if ([string]::IsNullOrEmpty($dir)) { throw 'CSI_WINSIM_DIR is not set: the simulator has no state directory.' }
    return $dir
}

function Get-WinSimNow {
    return ([DateTimeOffset]::UtcNow - [DateTimeOffset]::UnixEpoch).TotalMilliseconds
}

# Serialises processes: a named mutex per state directory (.NET shares named mutexes between
# processes on Unix too), waited on without polling, so calls that queue for the host take it in
# turn with no idle gap between them. A process killed while holding it leaves it abandoned: the
# next waiter gets it (AbandonedMutexException), as the OS released the old file lock on exit.
$script:WinSimLocks = @{}

function Get-WinSimLockName([string]$Dir) {
    $bytes = [System.Text.Encoding]::UTF8.GetBytes([System.IO.Path]::GetFullPath($Dir))
    $hash = [System.Security.Cryptography.SHA256]::Create().ComputeHash($bytes)
    return 'Global\csi-winsim-' + ([System.BitConverter]::ToString($hash, 0, 16) -replace '-', '').ToLowerInvariant()
}

# $Part: '' for the state's lock, 'log' for the call log's, which a query takes alone and a change
# takes inside the state's (always in that order, so neither waits for the other in a circle).
function Enter-WinSimLock([string]$Part = '') {
    $dir = Get-WinSimDir
    $key = $dir + '|' + $Part
    $mutex = $script:WinSimLocks[$key]
    if ($null -eq $mutex) {
        $name = Get-WinSimLockName $dir
        if ($Part -ne '') { $name = $name + '-' + $Part }
        $mutex = [System.Threading.Mutex]::new($false, $name)
        $script:WinSimLocks[$key] = $mutex
    }
    try {
        if (-not $mutex.WaitOne(60000)) { throw "The simulator lock of $dir stayed taken for 60 seconds." }
    } catch [System.Threading.AbandonedMutexException] {
        # Ours now: its last holder ended without releasing it.
    }
    return $mutex
}

function Exit-WinSimLock([System.Threading.Mutex]$Lock) {
    if ($null -ne $Lock) { $Lock.ReleaseMutex() }
}

function Read-WinSimJson([string]$Name, $Default) {
    $path = Join-Path (Get-WinSimDir) $Name
    if (-not [System.IO.File]::Exists($path)) { return $Default }
    $text = [System.IO.File]::ReadAllText($path)
    if ([string]::IsNullOrWhiteSpace($text)) { return $Default }
    return (ConvertFrom-Json -InputObject $text -NoEnumerate)
}

# Readers never see a half-written file: write a temp file and rename it over the old one.
function Write-WinSimJson([string]$Name, $Value) {
    $dir = Get-WinSimDir
    $path = Join-Path $dir $Name
    $tmp = Join-Path $dir ('.' + $Name + '.' + $PID + '.tmp')
    $json = ConvertTo-Json -InputObject $Value -Depth 32
    [System.IO.File]::WriteAllText($tmp, $json, [System.Text.UTF8Encoding]::new($false))
    [System.IO.File]::Move($tmp, $path, $true)
}

# A hand-written state.json may leave keys out; cmdlets assign to every key, so fill them in.
$script:WinSimDefaults = @{
    disks      = [ordered]@{
        location = $null; friendlyName = ''; model = $null; manufacturer = $null; serialNumber = $null; uniqueId = ''
        uniqueIdFormat = 0; firmwareVersion = '1.0'; logicalSectorSize = 512; physicalSectorSize = 4096
        isOffline = $false; offlineReason = $null; isReadOnly = $false; isSystem = $false; isBoot = $false
        isClustered = $false; signature = $null; guid = $null; deviceIds = @(); deviceIdError = $null; provisioningType = 2
    }
    partitions = [ordered]@{
        gptType = $null; mbrType = $null; driveLetter = $null; guid = $null; accessPaths = @(); volume = $null
        isReadOnly = $false; isOffline = $false; isHidden = $false; isActive = $false
    }
    volumes    = [ordered]@{ fileSystem = ''; label = ''; allocationUnitSize = 0; baseUsed = 0 }
}

function Add-WinSimDefaults($Item, [System.Collections.IDictionary]$Defaults) {
    foreach ($key in $Defaults.Keys) {
        if ($null -eq $Item.PSObject.Properties[$key]) { $Item | Add-Member -NotePropertyName $key -NotePropertyValue $Defaults[$key] }
    }
}

function Read-WinSimState {
    $state = Read-WinSimJson 'state.json' $null
    if ($null -eq $state) { throw "The simulator state $(Join-Path (Get-WinSimDir) 'state.json') is missing." }
    foreach ($name in @('disks', 'partitions', 'volumes')) {
        if ($null -eq $state.PSObject.Properties[$name]) { $state | Add-Member -NotePropertyName $name -NotePropertyValue @() }
        $state.$name = [System.Collections.Generic.List[object]]@($state.$name | Where-Object { $null -ne $_ })
        foreach ($item in $state.$name) { Add-WinSimDefaults $item $script:WinSimDefaults[$name] }
    }
    return $state
}

function Write-WinSimState($State) {
    foreach ($name in @('disks', 'partitions', 'volumes')) { $State.$name = @($State.$name) }
    Write-WinSimJson 'state.json' $State
}

function Get-WinSimVolumeRoot([string]$Guid) {
    return (Join-Path (Join-Path (Get-WinSimDir) 'volumes') ('Volume{' + $Guid + '}'))
}
