# Logins and logouts. A login checks the portal, the target and CHAP as the target would, then
# brings the target's LUNs in as disks; a logout takes them out again.
function Connect-IscsiTarget {
    [CmdletBinding(DefaultParameterSetName = 'ByNodeAddress', PositionalBinding = $false)]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#MSFT_IscsiSession')]
    param(
        [Parameter(ParameterSetName = 'ByNodeAddress', Mandatory, ValueFromPipelineByPropertyName)][string]$NodeAddress,
        [Alias('TA')][string]$TargetPortalAddress,
        [uint16]$TargetPortalPortNumber,
        [string]$InitiatorPortalAddress,
        [bool]$IsDataDigest,
        [bool]$IsHeaderDigest,
        [Parameter(ParameterSetName = 'ByNodeAddress')][bool]$IsPersistent,
        [bool]$ReportToPnP,
        [string]$AuthenticationType,
        [bool]$IsMultipathEnabled,
        [string]$InitiatorInstanceName,
        [string]$ChapUsername,
        [string]$ChapSecret,
        [Parameter(ParameterSetName = 'ByObject', Mandatory, ValueFromPipelineByPropertyName)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSITarget')]
        [object[]]$InputObject,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $params = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet (Get-WinSimIscsiLogBound $params) (Get-WinSimIscsiTarget $InputObject) {
            param($ctx)
            $iscsi = Get-WinSimIscsi $ctx.State
            $err = Test-WinSimIscsiService $ctx.State $iscsi 'MSFT_iSCSITarget'
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            $nodes = if ($params.ContainsKey('InputObject')) { @($InputObject | ForEach-Object { [string]$_.NodeAddress }) } else { @($NodeAddress) }
            foreach ($node in $nodes) {
                $login = [pscustomobject]@{
                    Node = $node; Address = $TargetPortalAddress; HasAddress = $params.ContainsKey('TargetPortalAddress')
                    Port = Get-WinSimIscsiPort $TargetPortalPortNumber; Auth = 'NONE'; User = $ChapUsername; Secret = $ChapSecret
                    Persistent = [bool]$IsPersistent; Multipath = [bool]$IsMultipathEnabled
                }
                if ($params.ContainsKey('AuthenticationType')) { $login.Auth = $AuthenticationType }
                $result = Invoke-WinSimIscsiLogin $ctx.State $iscsi $login
                if ($result -is [System.Management.Automation.ErrorRecord]) { $ctx.Items.Add($result); continue }
                $ctx.Changed = $true
                $ctx.Items.Add((New-WinSimIscsiSessionObject $iscsi $result))
            }
        }
    }
}

# Returns the new session, or the ErrorRecord the initiator reports.
function Invoke-WinSimIscsiLogin($State, $Iscsi, $Login) {
    $class = 'MSFT_iSCSITarget'
    $known = @((Get-WinSimIscsiTargetNames $Iscsi) | Where-Object { Test-WinSimSameText $_ $Login.Node })
    if ($known.Count -eq 0) { return (New-WinSimIscsiError 'efff0029' $class) }
    $address = $Login.Address
    $port = [int]$Login.Port
    if (-not $Login.HasAddress -or [string]::IsNullOrEmpty($address)) {
        $via = @($Iscsi.portals | Where-Object { @($_.discovered | Where-Object { Test-WinSimSameText $_ $Login.Node }).Count -gt 0 })
        if ($via.Count -eq 0) { return (New-WinSimIscsiError 'efff0029' $class) }
        $address = [string]$via[0].address
        $port = [int]$via[0].port
    }
    $endpoint = Find-WinSimIscsiEndpoint $Iscsi $address $port
    if ($null -eq $endpoint) { return (New-WinSimIscsiError 'efff0003' $class) }
    $target = Find-WinSimIscsiServerTarget $endpoint.server $Login.Node
    if ($null -eq $target) { return (New-WinSimIscsiError 'efff0029' $class) }
    $existing = Get-WinSimIscsiTargetSessions $Iscsi $target.iqn
    if ($existing.Count -gt 0 -and -not $Login.Multipath) { return (New-WinSimIscsiError 'efff003f' $class) }
    $authError = Test-WinSimIscsiChap $Iscsi $target $Login
    if ($null -ne $authError) { return $authError }
    $dataAddress = $endpoint.address
    $redirect = Get-WinSimField $endpoint.server 'redirectTo'
    if (-not [string]::IsNullOrEmpty($redirect)) { $dataAddress = [string]$redirect }
    $ids = New-WinSimIscsiSessionIds $Iscsi
    $session = [pscustomobject]@{
        sessionIdentifier = $ids.session; initiatorSideIdentifier = $ids.initiator; targetSideIdentifier = $ids.target
        targetNodeAddress = ([string]$target.iqn).ToLowerInvariant(); authenticationType = [string]$Login.Auth
        isPersistent = [bool]$Login.Persistent; isMultipathEnabled = [bool]$Login.Multipath
        # The TCP connection's address: the server's IP, never the name the portal was registered
        # with (MSFT_iSCSIConnection.TargetAddress is "the IP address of the target", class docs),
        # or the data address a redirecting target moved the login to (RFC 7143 §11.13.5).
        connections = @([pscustomobject]@{ connectionIdentifier = $ids.connection; targetAddress = $dataAddress; targetPort = $port; initiatorAddress = '0.0.0.0'; initiatorPort = $ids.port })
        disks = @()
    }
    Add-WinSimLunDisks $State $Iscsi $target $session
    $Iscsi.sessions.Add($session)
    if ($session.isPersistent) { Add-WinSimIscsiFavorite $Iscsi $session $Login.User }
    return $session
}

# CHAP as the target checks it: NONE only for a target without CHAP; the initiator's user name
# defaults to its node name; MUTUALCHAP also needs the target's secret to equal the initiator's.
function Test-WinSimIscsiChap($Iscsi, $Target, $Login) {
    $fail = New-WinSimIscsiError 'efff0009' 'MSFT_iSCSITarget'
    $auth = [string]$Login.Auth
    # The cmdlet compares the type case-sensitively (windows-powershell-docs#288).
    if (@('NONE', 'ONEWAYCHAP', 'MUTUALCHAP') -cnotcontains $auth) { return $fail }
    $wantUser = Get-WinSimField $Target 'chapUsername'
    $wantSecret = Get-WinSimField $Target 'chapSecret'
    if ($auth -ceq 'NONE') {
        if ($null -ne $wantSecret) { return $fail }
        return $null
    }
    if (-not (Test-WinSimChapSecretLength ([string]$Login.Secret))) { return (New-WinSimIscsiError 'efff004a' 'MSFT_iSCSITarget') }
    if ($null -eq $wantSecret) { return $fail }
    $user = [string]$Login.User
    if ($user -eq '') { $user = [string]$Iscsi.initiator.nodeAddress }
    if ($user -cne [string]$wantUser -or [string]$Login.Secret -cne [string]$wantSecret) { return $fail }
    if ($auth -ceq 'MUTUALCHAP') {
        $targetSecret = Get-WinSimField $Target 'mutualChapSecret'
        $initiatorSecret = Get-WinSimField $Iscsi.initiator 'mutualChapSecret'
        if ($null -eq $targetSecret -or $null -eq $initiatorSecret -or [string]$targetSecret -cne [string]$initiatorSecret) { return $fail }
    }
    return $null
}

function Add-WinSimIscsiFavorite($Iscsi, $Session, $User) {
    $connection = @($Session.connections)[0]
    $Iscsi.favorites.Add([pscustomobject]@{
            sessionIdentifier = [string]$Session.sessionIdentifier; targetNodeAddress = [string]$Session.targetNodeAddress
            targetAddress = [string]$connection.targetAddress; targetPort = [int]$connection.targetPort
            authenticationType = [string]$Session.authenticationType
            chapUsername = if ([string]::IsNullOrEmpty($User)) { $null } else { [string]$User }
            isMultipathEnabled = [bool]$Session.isMultipathEnabled
        })
}

function Disconnect-IscsiTarget {
    [CmdletBinding(DefaultParameterSetName = 'ByNodeAddress', SupportsShouldProcess, ConfirmImpact = 'High', PositionalBinding = $false)]
    param(
        [Parameter(ParameterSetName = 'ByNodeAddress', ValueFromPipelineByPropertyName)][string[]]$NodeAddress,
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSITarget')]
        [object[]]$InputObject,
        [string]$SessionIdentifier,
        [switch]$PassThru,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $params = $PSBoundParameters
        $caller = $PSCmdlet
        Invoke-WinSimCommand $PSCmdlet $params (Get-WinSimIscsiTarget $InputObject) {
            param($ctx)
            $iscsi = Get-WinSimIscsi $ctx.State
            $class = 'MSFT_iSCSITarget'
            $err = Test-WinSimIscsiService $ctx.State $iscsi $class
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            $names = Get-WinSimIscsiTargetNames $iscsi
            if ($params.ContainsKey('InputObject')) {
                $names = Select-WinSimByValues $ctx $names $class 'ObjectId' @($InputObject | ForEach-Object { [string]$_.NodeAddress }) { param($n, $v) Test-WinSimSameText $n $v }
            } elseif ($params.ContainsKey('NodeAddress')) {
                # Unverified: whether this CDXML filter ignores case. Modelled as the less convenient
                # option, exact against MSFT_iSCSITarget.NodeAddress as Get-IscsiTarget shows it
                # (the target's spelling), so neither a caller's other spelling nor a session's
                # lower-cased TargetNodeAddress finds a mixed-case target (docs/design/winsim.md).
                $names = Select-WinSimByValues $ctx $names $class 'NodeAddress' @($NodeAddress) { param($n, $v) [string]::Equals([string]$n, [string]$v, [StringComparison]::Ordinal) }
            } elseif ($params.ContainsKey('SessionIdentifier')) {
                $names = @($iscsi.sessions | ForEach-Object { [string]$_.targetNodeAddress })
            }
            $named = $params.ContainsKey('NodeAddress') -or $params.ContainsKey('InputObject')
            $matched = 0
            foreach ($name in $names) {
                $sessions = Get-WinSimIscsiTargetSessions $iscsi $name
                if ($params.ContainsKey('SessionIdentifier')) { $sessions = @($sessions | Where-Object { Test-WinSimSameText $_.sessionIdentifier $SessionIdentifier }) }
                # A named target without (that) session is an error; a sweep over every target skips it.
                if ($sessions.Count -eq 0) {
                    if ($named) { $ctx.Items.Add((New-WinSimIscsiError 'efff001c' $class)) }
                    continue
                }
                $matched++
                if (-not $caller.ShouldProcess($name, 'Disconnect')) { continue }
                foreach ($session in $sessions) {
                    [void]$iscsi.sessions.Remove($session)
                    Remove-WinSimLunDisks $ctx.State $iscsi $session
                }
                $ctx.Changed = $true
                if ($PassThru) { $ctx.Items.Add((New-WinSimIscsiTargetObject $iscsi $name)) }
            }
            if (-not $named -and $params.ContainsKey('SessionIdentifier') -and $matched -eq 0) { $ctx.Items.Add((New-WinSimIscsiError 'efff001c' $class)) }
        }
    }
}
