# The iSCSI part of state.json (src/iscsi.ts IscsiState), normalised so cmdlets can append to its lists.
function Get-WinSimIscsi($State) {
    if ($null -eq $State.PSObject.Properties['iscsi'] -or $null -eq $State.iscsi) {
        $fresh = [pscustomobject]@{
            version = 1; hosts = @(); servers = @(); portals = @(); sessions = @(); favorites = @(); lastSession = 0
            initiator = [pscustomobject]@{ nodeAddress = 'iqn.1991-05.com.microsoft:winsim'; mutualChapSecret = $null; serviceRunning = $true }
        }
        $State | Add-Member -NotePropertyName 'iscsi' -NotePropertyValue $fresh -Force
    }
    $iscsi = $State.iscsi
    foreach ($name in @('hosts', 'servers', 'portals', 'sessions', 'favorites')) {
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

# One spelling per IP address (.NET's), so '2001:DB8:0::5' and '2001:db8::5' are the same server.
function ConvertTo-WinSimIpKey([string]$Address) {
    $ip = $null
    if ([System.Net.IPAddress]::TryParse($Address, [ref]$ip)) { return $ip.ToString() }
    return $null
}

# What the host resolves a portal address to: an IP stands for itself; a name resolves only
# through the scenario's table (state.iscsi.hosts: localhost plus the servers' names), never
# through real DNS. An unknown name resolves to nothing.
function Resolve-WinSimIscsiName($Iscsi, [string]$Address) {
    if ($null -ne (ConvertTo-WinSimIpKey $Address)) { return , @($Address) }
    $name = $Address.TrimEnd('.')
    foreach ($h in $Iscsi.hosts) {
        if (Test-WinSimSameText (([string]$h.name).TrimEnd('.')) $name) { return , @($h.addresses | ForEach-Object { [string]$_ }) }
    }
    return , @()
}

# The server a connection to the portal reaches, and the IP it reaches it at: the first resolved
# address with a server on that port, as a connect tries the resolved addresses in order.
function Find-WinSimIscsiEndpoint($Iscsi, [string]$Address, [int]$Port) {
    foreach ($ip in (Resolve-WinSimIscsiName $Iscsi $Address)) {
        $key = ConvertTo-WinSimIpKey $ip
        foreach ($s in $Iscsi.servers) {
            if ((ConvertTo-WinSimIpKey ([string]$s.address)) -eq $key -and [int]$s.port -eq $Port) {
                return [pscustomobject]@{ server = $s; address = [string]$s.address }
            }
        }
    }
    return $null
}

function Find-WinSimIscsiServer($Iscsi, [string]$Address, [int]$Port) {
    $endpoint = Find-WinSimIscsiEndpoint $Iscsi $Address $Port
    if ($null -eq $endpoint) { return $null }
    return $endpoint.server
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

# What SendTargets discovery on the server leaves in the initiator: the IQNs as the target spells
# them; Get-IscsiTarget shows a mixed-case NodeAddress while Get-IscsiSession lower-cases it
# (PowerShell/PowerShell#17306, output from a real host).
function Get-WinSimIscsiDiscovered($Server) {
    return , @($Server.targets | ForEach-Object { [string]$_.iqn })
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
