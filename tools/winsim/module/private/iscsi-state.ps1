# The iSCSI part of state.json (src/iscsi.ts IscsiState), normalised so cmdlets can append to its lists.
function Get-WinSimIscsi($State) {
    if ($null -eq $State.PSObject.Properties['iscsi'] -or $null -eq $State.iscsi) {
        $fresh = [pscustomobject]@{
            version = 1; servers = @(); portals = @(); sessions = @(); favorites = @(); lastSession = 0
            initiator = [pscustomobject]@{ nodeAddress = 'iqn.1991-05.com.microsoft:winsim'; mutualChapSecret = $null; serviceRunning = $true }
        }
        $State | Add-Member -NotePropertyName 'iscsi' -NotePropertyValue $fresh -Force
    }
    $iscsi = $State.iscsi
    foreach ($name in @('servers', 'portals', 'sessions', 'favorites')) {
        if ($null -eq $iscsi.PSObject.Properties[$name]) { $iscsi | Add-Member -NotePropertyName $name -NotePropertyValue @() }
        if ($iscsi.$name -isnot [System.Collections.Generic.List[object]]) {
            $iscsi.$name = [System.Collections.Generic.List[object]]@($iscsi.$name | Where-Object { $null -ne $_ })
        }
    }
    if ($null -eq $iscsi.PSObject.Properties['lastSession']) { $iscsi | Add-Member -NotePropertyName 'lastSession' -NotePropertyValue 0 }
    if ($null -eq $iscsi.PSObject.Properties['initiator'] -or $null -eq $iscsi.initiator) { $iscsi | Add-Member -NotePropertyName 'initiator' -NotePropertyValue ([pscustomobject]@{}) -Force }
    $defaults = [ordered]@{ nodeAddress = 'iqn.1991-05.com.microsoft:winsim'; mutualChapSecret = $null; serviceRunning = $true }
    Add-WinSimDefaults $iscsi.initiator $defaults
    return $iscsi
}

function Test-WinSimSameText([string]$A, [string]$B) {
    return [string]::Equals($A, $B, [StringComparison]::OrdinalIgnoreCase)
}

# Port 0 or none means the well-known port, as the initiator treats it.
function Get-WinSimIscsiPort($Port) {
    if ($null -eq $Port -or [int]$Port -eq 0) { return 3260 }
    return [int]$Port
}

function Find-WinSimIscsiServer($Iscsi, [string]$Address, [int]$Port) {
    foreach ($s in $Iscsi.servers) { if ((Test-WinSimSameText $s.address $Address) -and [int]$s.port -eq $Port) { return $s } }
    return $null
}

function Find-WinSimIscsiPortal($Iscsi, [string]$Address, [int]$Port) {
    foreach ($p in $Iscsi.portals) { if ((Test-WinSimSameText $p.address $Address) -and [int]$p.port -eq $Port) { return $p } }
    return $null
}

function Find-WinSimIscsiServerTarget($Server, [string]$NodeAddress) {
    if ($null -eq $Server) { return $null }
    foreach ($t in @($Server.targets)) { if (Test-WinSimSameText $t.iqn $NodeAddress) { return $t } }
    return $null
}

# Every target the initiator knows: discovered through a portal, or logged in to (in discovery order).
function Get-WinSimIscsiTargetNames($Iscsi) {
    $names = [System.Collections.Generic.List[string]]::new()
    $add = { param($n) if (@($names | Where-Object { Test-WinSimSameText $_ $n }).Count -eq 0) { $names.Add($n) } }
    foreach ($p in $Iscsi.portals) { foreach ($n in @($p.discovered)) { if ($null -ne $n) { & $add ([string]$n) } } }
    foreach ($s in $Iscsi.sessions) { & $add ([string]$s.targetNodeAddress) }
    return , $names.ToArray()
}

function Get-WinSimIscsiTargetSessions($Iscsi, [string]$NodeAddress) {
    return , @($Iscsi.sessions | Where-Object { Test-WinSimSameText $_.targetNodeAddress $NodeAddress })
}

function Find-WinSimIscsiSession($Iscsi, [string]$SessionIdentifier) {
    foreach ($s in $Iscsi.sessions) { if (Test-WinSimSameText $s.sessionIdentifier $SessionIdentifier) { return $s } }
    return $null
}

# Identifiers shaped like the real ones (fffffa800d008430-400001370000000b), unique per host.
function New-WinSimIscsiSessionIds($Iscsi) {
    $Iscsi.lastSession = [int]$Iscsi.lastSession + 1
    $n = [int]$Iscsi.lastSession
    $base = 'ffffe001d4c5a{0:x3}' -f $n
    return [pscustomobject]@{
        session    = "$base-40000137{0:x8}" -f $n
        initiator  = '40000137{0:x4}' -f $n
        target     = '{0:x4}' -f (0x100 + $n)
        connection = "$base-1"
        port       = 49152 + ($n % 16000)
    }
}
