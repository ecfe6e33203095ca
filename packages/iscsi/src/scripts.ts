import { ps } from "@csi-proxy/exec";

// Constant scripts only: every value reaches them as a param() parameter, never as text. They
// target Windows PowerShell 5.1 and the real iSCSI cmdlets (windows-cmdlets.md §4). Portals are
// matched by Where-Object, because a -TargetPortalAddress filter that matches nothing raises a
// not-found error, and `-eq` compares addresses and IQNs case-insensitively, as Windows does.
//
// A session goes "through a portal" when one of its connections' TargetAddress is one of the
// portal's resolved addresses ($TargetPortalAddresses, resolved in Node) on the portal's port.
// TargetAddress is the connection's IP (MSFT_iSCSIConnection docs), while the portal keeps the
// name it was registered with, so the registered string is never compared with it. Both sides
// are put in .NET's textual form first (IPv6 spellings differ; IPv4-mapped IPv6 as IPv4).

/** Every registered portal (upstream: `Get-IscsiTargetPortal | Select-Object ...`). */
export const listPortalsScript = ps("iscsi.listPortals")`
,@(Get-IscsiTargetPortal | ForEach-Object {
    [pscustomobject]@{ address = $_.TargetPortalAddress; port = [int]$_.TargetPortalPortNumber }
})
`;

/** Registers the portal (which runs SendTargets discovery) unless it is registered already. */
export const addPortalScript = ps("iscsi.addPortal")`
param([string]$TargetPortalAddress, [int]$TargetPortalPortNumber)
$portals = @(Get-IscsiTargetPortal | Where-Object {
    $_.TargetPortalAddress -eq $TargetPortalAddress -and $_.TargetPortalPortNumber -eq $TargetPortalPortNumber
})
if ($portals.Count -gt 0) { 'exists'; return }
New-IscsiTargetPortal -TargetPortalAddress $TargetPortalAddress -TargetPortalPortNumber $TargetPortalPortNumber | Out-Null
'added'
`;

/** Removes the portal if it is registered; its sessions stay logged in. */
export const removePortalScript = ps("iscsi.removePortal")`
param([string]$TargetPortalAddress, [int]$TargetPortalPortNumber)
$portals = @(Get-IscsiTargetPortal | Where-Object {
    $_.TargetPortalAddress -eq $TargetPortalAddress -and $_.TargetPortalPortNumber -eq $TargetPortalPortNumber
})
if ($portals.Count -eq 0) { 'absent'; return }
# By object: the by-address set's Int32 port parameter fails to bind (windows-powershell-docs#3061).
$portals | Remove-IscsiTargetPortal -Confirm:$false
'removed'
`;

/**
 * Refreshes discovery on the portal and lists its targets. Upstream only listed the cached
 * targets, so a target created after the portal was added stayed invisible.
 */
export const discoverScript = ps("iscsi.discover")`
param([string]$TargetPortalAddress, [int]$TargetPortalPortNumber)
$portals = @(Get-IscsiTargetPortal | Where-Object {
    $_.TargetPortalAddress -eq $TargetPortalAddress -and $_.TargetPortalPortNumber -eq $TargetPortalPortNumber
})
if ($portals.Count -eq 0) { [pscustomobject]@{ portalFound = $false; iqns = @() }; return }
$portals | Update-IscsiTargetPortal
$iqns = @($portals | Get-IscsiTarget | ForEach-Object { $_.NodeAddress } | Sort-Object -Unique)
[pscustomobject]@{ portalFound = $true; iqns = $iqns }
`;

/**
 * Logs in to the target through the portal unless a connected session makes that unnecessary
 * (see HostConnectOutcome). CHAP values are passed only for CHAP logins, as upstream did.
 */
export const connectScript = ps("iscsi.connect")`
param(
    [string]$TargetPortalAddress,
    [int]$TargetPortalPortNumber,
    [string[]]$TargetPortalAddresses,
    [bool]$PortalResolved,
    [string]$NodeAddress,
    [string]$AuthenticationType,
    [string]$ChapUsername,
    [string]$ChapSecret,
    [bool]$IsPersistent,
    [bool]$IsMultipathEnabled
)
$portals = @(Get-IscsiTargetPortal | Where-Object {
    $_.TargetPortalAddress -eq $TargetPortalAddress -and $_.TargetPortalPortNumber -eq $TargetPortalPortNumber
})
if ($portals.Count -eq 0) { 'portalNotFound'; return }
$targets = @($portals | Get-IscsiTarget | Where-Object { $_.NodeAddress -eq $NodeAddress })
if ($targets.Count -eq 0) { 'targetNotFound'; return }
$node = $targets[0].NodeAddress
$ipText = {
    param([string]$Text)
    $ip = $null
    if (-not [System.Net.IPAddress]::TryParse($Text, [ref]$ip)) { return $Text.ToLowerInvariant() }
    if ($ip.IsIPv4MappedToIPv6) { $ip = $ip.MapToIPv4() }
    $ip.ToString()
}
$portalIps = @($TargetPortalAddresses | Where-Object { $_ } | ForEach-Object { & $ipText $_ })
$sessions = @(Get-IscsiSession | Where-Object { $_.TargetNodeAddress -eq $node -and $_.IsConnected })
$viaPortal = @($sessions | Where-Object {
    @(Get-IscsiConnection -IscsiSession $_ | Where-Object {
        $portalIps -contains (& $ipText $_.TargetAddress) -and $_.TargetPortNumber -eq $TargetPortalPortNumber
    }).Count -gt 0
})
$existing = $viaPortal
if ($existing.Count -eq 0 -and $sessions.Count -gt 0 -and -not $IsMultipathEnabled) { $existing = $sessions }
# A target redirects logins (RFC 7143 "moved temporarily": EqualLogic group IPs, StoreVirtual
# VIPs) to a data address that is neither the portal's text nor its DNS answer, so without
# another registered portal offering the target, every session of it came through this one.
if ($existing.Count -eq 0 -and $sessions.Count -gt 0) {
    $others = @(Get-IscsiTargetPortal | Where-Object {
        -not ($_.TargetPortalAddress -eq $TargetPortalAddress -and $_.TargetPortalPortNumber -eq $TargetPortalPortNumber) -and
        @($_ | Get-IscsiTarget | Where-Object { $_.NodeAddress -eq $node }).Count -gt 0
    })
    if ($others.Count -eq 0) { $existing = $sessions }
}
# Multipath through several portals, sessions exist, and the portal's name does not resolve: any of them may be ours.
if ($existing.Count -eq 0 -and $sessions.Count -gt 0 -and -not $PortalResolved) { 'portalUnresolved'; return }
if ($existing.Count -gt 0) {
    $session = $existing[0]
    if ($IsPersistent -and -not $session.IsPersistent) {
        if ($AuthenticationType -eq 'NONE') {
            Register-IscsiSession -SessionIdentifier $session.SessionIdentifier -IsMultipathEnabled $IsMultipathEnabled
        } else {
            Register-IscsiSession -SessionIdentifier $session.SessionIdentifier -IsMultipathEnabled $IsMultipathEnabled -ChapUsername $ChapUsername -ChapSecret $ChapSecret
        }
    }
    'alreadyConnected'
    return
}
# By node address: -InputObject does not work for this static method (csi-proxy PS era).
if ($AuthenticationType -eq 'NONE') {
    Connect-IscsiTarget -NodeAddress $node -TargetPortalAddress $TargetPortalAddress -TargetPortalPortNumber $TargetPortalPortNumber -AuthenticationType $AuthenticationType -IsPersistent $IsPersistent -IsMultipathEnabled $IsMultipathEnabled | Out-Null
} else {
    Connect-IscsiTarget -NodeAddress $node -TargetPortalAddress $TargetPortalAddress -TargetPortalPortNumber $TargetPortalPortNumber -AuthenticationType $AuthenticationType -ChapUsername $ChapUsername -ChapSecret $ChapSecret -IsPersistent $IsPersistent -IsMultipathEnabled $IsMultipathEnabled | Out-Null
}
'connected'
`;

/**
 * Logs out the sessions Node chose after attributing what `iscsi.disconnect` listed (when another
 * portal of the target is a host name). Every persistent login to remove is unregistered before any logout, so a
 * failure part-way never leaves a logged-out session that Windows would restore at boot. The
 * target is named by its own MSFT_iSCSITarget object, piped as upstream did, never by the
 * caller's spelling: Windows spells one target two ways (Get-IscsiTarget as the target does,
 * Get-IscsiSession lower-cased, PowerShell/PowerShell#17306) and whether the -NodeAddress
 * filter ignores case is unverified. Without a target object by name, the session's own target
 * (Get-IscsiTarget -IscsiSession) is used, and only without that the session's own name.
 */
export const logoutScript = ps("iscsi.logout")`
param([string]$NodeAddress, [object[]]$Sessions)
$targets = @(Get-IscsiTarget | Where-Object { $_.NodeAddress -eq $NodeAddress })
foreach ($session in $Sessions) {
    if ($session.unregister) { Unregister-IscsiSession -SessionIdentifier $session.sessionIdentifier }
}
foreach ($session in $Sessions) {
    $owner = $targets
    # Not listed by name any more: the session's own target object, found by association rather
    # than by its lower-cased name, which an ordinal -NodeAddress filter could miss.
    if ($owner.Count -eq 0) { $owner = @(Get-IscsiSession -SessionIdentifier $session.sessionIdentifier | Get-IscsiTarget) }
    if ($owner.Count -gt 0) {
        $owner[0] | Disconnect-IscsiTarget -SessionIdentifier $session.sessionIdentifier -Confirm:$false
    } else {
        Disconnect-IscsiTarget -NodeAddress $session.targetNodeAddress -SessionIdentifier $session.sessionIdentifier -Confirm:$false
    }
}
`;

/**
 * Logs out of the target's sessions through the portal in one round trip: lists the connected
 * sessions to the target and their connections, tells which are the portal's, unregisters their
 * persistent logins, then logs them out (as `iscsi.logout` does). A session is the portal's when a
 * connection goes to one of the portal's endpoints (its registered text, and the addresses Node
 * resolved it to, `$TargetPortalAddresses`, on its port); otherwise (a redirected login) when no
 * other registered portal offering the target claims it. Those portals are read only when some
 * session is not plainly the portal's. When one of them is a host name, only Node's resolver can
 * say which addresses it claims: the script then changes nothing and returns the sessions and
 * the other portals for Node to attribute, and `iscsi.logout` logs
 * out its choice. Otherwise it returns how many sessions it logged out (`loggedOut`).
 * Endpoints compare in the form attribute.ts gives them: lower case, an IP address in .NET's
 * textual form (an IPv4-mapped IPv6 address as its IPv4), on the port.
 */
export const disconnectScript = ps("iscsi.disconnect")`
param(
    [string]$TargetPortalAddress,
    [int]$TargetPortalPortNumber,
    [string[]]$TargetPortalAddresses,
    [string]$NodeAddress
)
$sessions = @(Get-IscsiSession | Where-Object { $_.TargetNodeAddress -eq $NodeAddress -and $_.IsConnected })
if ($sessions.Count -eq 0) { [pscustomobject]@{ loggedOut = 0 }; return }
$isIp = {
    param([string]$Text)
    $ip = $null
    ($Text.Contains(':') -or $Text -match '^[0-9]{1,3}(\.[0-9]{1,3}){3}$') -and [System.Net.IPAddress]::TryParse($Text, [ref]$ip)
}
$endpoint = {
    param([string]$Text, [int]$Port)
    $t = $Text.Trim().ToLowerInvariant()
    $ip = $null
    if ((& $isIp $t) -and [System.Net.IPAddress]::TryParse($t, [ref]$ip)) {
        if ($ip.IsIPv4MappedToIPv6) { $ip = $ip.MapToIPv4() }
        $t = $ip.ToString().ToLowerInvariant()
    }
    $t + '|' + [string]$Port
}
$own = @(@($TargetPortalAddress) + @($TargetPortalAddresses | Where-Object { $_ }) | ForEach-Object { & $endpoint $_ $TargetPortalPortNumber })
$listed = @(foreach ($session in $sessions) {
    $connections = @(Get-IscsiConnection -IscsiSession $session | ForEach-Object {
        [pscustomobject]@{ address = [string]$_.TargetAddress; port = [int]$_.TargetPortNumber }
    })
    $mine = @($connections | Where-Object { $own -contains (& $endpoint $_.address $_.port) }).Count -gt 0
    [pscustomobject]@{
        session           = $session
        sessionIdentifier = [string]$session.SessionIdentifier
        targetNodeAddress = [string]$session.TargetNodeAddress
        isPersistent      = [bool]$session.IsPersistent
        connections       = $connections
        mine              = $mine
    }
})
# Only a session that is not plainly the portal's makes the other portals worth a query each.
$others = @()
if (@($listed | Where-Object { -not $_.mine }).Count -gt 0) {
    $others = @(Get-IscsiTargetPortal | Where-Object {
        -not ($_.TargetPortalAddress -eq $TargetPortalAddress -and $_.TargetPortalPortNumber -eq $TargetPortalPortNumber) -and
        @($_ | Get-IscsiTarget | Where-Object { $_.NodeAddress -eq $NodeAddress }).Count -gt 0
    } | ForEach-Object {
        [pscustomobject]@{ address = [string]$_.TargetPortalAddress; port = [int]$_.TargetPortalPortNumber }
    })
}
if (@($others | Where-Object { -not (& $isIp $_.address.Trim()) }).Count -gt 0) {
    $found = @($listed | ForEach-Object {
        [pscustomobject]@{
            sessionIdentifier = $_.sessionIdentifier
            targetNodeAddress = $_.targetNodeAddress
            isPersistent      = $_.isPersistent
            connections       = $_.connections
        }
    })
    [pscustomobject]@{ loggedOut = $null; sessions = $found; otherPortals = $others }
    return
}
$claimed = @($others | ForEach-Object { & $endpoint $_.address $_.port })
$logouts = @($listed | Where-Object {
    $_.mine -or @($_.connections | Where-Object { $claimed -contains (& $endpoint $_.address $_.port) }).Count -eq 0
})
if ($logouts.Count -eq 0) { [pscustomobject]@{ loggedOut = 0 }; return }
# As iscsi.logout: every persistent login first, then the logouts, each by its target's object.
$targets = @(Get-IscsiTarget | Where-Object { $_.NodeAddress -eq $NodeAddress })
foreach ($entry in $logouts) {
    if ($entry.isPersistent) { Unregister-IscsiSession -SessionIdentifier $entry.sessionIdentifier }
}
foreach ($entry in $logouts) {
    $owner = $targets
    if ($owner.Count -eq 0) { $owner = @($entry.session | Get-IscsiTarget) }
    if ($owner.Count -gt 0) {
        $owner[0] | Disconnect-IscsiTarget -SessionIdentifier $entry.sessionIdentifier -Confirm:$false
    } else {
        Disconnect-IscsiTarget -NodeAddress $entry.targetNodeAddress -SessionIdentifier $entry.sessionIdentifier -Confirm:$false
    }
}
[pscustomobject]@{ loggedOut = $logouts.Count }
`;

/**
 * Disks of every connected session to the target (upstream: connections → Get-Disk), each with
 * its Location, whose `LUN n` part says which LUN it is (as disk.listDiskLocations reads it).
 */
export const targetDisksScript = ps("iscsi.targetDisks")`
param([string]$NodeAddress)
$sessions = @(Get-IscsiSession | Where-Object { $_.TargetNodeAddress -eq $NodeAddress -and $_.IsConnected })
# A disk without a Number (a failover-cluster disk owned elsewhere) is not usable here.
,@($sessions | ForEach-Object { Get-Disk -iSCSISession $_ } | Where-Object { $null -ne $_.Number } |
    ForEach-Object { [pscustomobject]@{ number = [int64]$_.Number; location = [string]$_.Location } })
`;

/**
 * Every iSCSI session with its connections and the disks on it, and the registered portals: two
 * queries, whatever the number of sessions. root/wmi MSiSCSIInitiator_SessionClass answers each
 * session's target, connections (TargetAddress, TargetPort) and devices (DeviceNumber, the disk
 * number Get-Disk shows; ScsiLun) in one CIM call (learn.microsoft.com, iscsidisc,
 * msiscsiinitiator-sessionclass and -deviceonsession; OpenStack os-win reads disk numbers from it),
 * where Get-IscsiSession | Get-Disk -iSCSISession takes one association call per session.
 */
export const listSessionsScript = ps("iscsi.listSessions")`
$sessions = @(Get-CimInstance -Namespace 'root\wmi' -ClassName 'MSiSCSIInitiator_SessionClass' | ForEach-Object {
    $session = $_
    [pscustomobject]@{
        sessionIdentifier = [string]$session.SessionId
        targetNodeAddress = [string]$session.TargetName
        connections       = @(@($session.ConnectionInformation) | Where-Object { $null -ne $_ } | ForEach-Object {
            [pscustomobject]@{ address = [string]$_.TargetAddress; port = [int]$_.TargetPort }
        })
        # FILE_DEVICE_DISK (7): a tape or changer on the session is no disk.
        disks             = @(@($session.Devices) | Where-Object { $null -ne $_ -and [int]$_.DeviceType -eq 7 } | ForEach-Object {
            [pscustomobject]@{ number = [int64]$_.DeviceNumber; lun = [int]$_.ScsiLun }
        })
    }
})
$portals = @(Get-IscsiTargetPortal | ForEach-Object {
    [pscustomobject]@{ address = [string]$_.TargetPortalAddress; port = [int]$_.TargetPortalPortNumber }
})
[pscustomobject]@{ sessions = $sessions; portals = $portals }
`;

/**
 * The targets each registered portal offers: read only for a session whose connections go to no
 * registered portal (a redirected login), as iscsi.disconnect reads them.
 */
export const listPortalTargetsScript = ps("iscsi.listPortalTargets")`
,@(Get-IscsiTargetPortal | ForEach-Object {
    $portal = $_
    [pscustomobject]@{
        address = [string]$portal.TargetPortalAddress
        port    = [int]$portal.TargetPortalPortNumber
        iqns    = @($portal | Get-IscsiTarget | ForEach-Object { [string]$_.NodeAddress })
    }
})
`;

/** Sets the initiator's node-wide mutual CHAP secret. */
export const setChapSecretScript = ps("iscsi.setChapSecret")`
param([string]$ChapSecret)
Set-IscsiChapSecret -ChapSecret $ChapSecret
`;
