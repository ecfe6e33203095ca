# Sessions (MSFT_iSCSISession): the logged-in ones, and their persistence ("favorite targets").
function Get-IscsiSession {
    [CmdletBinding(DefaultParameterSetName = 'BySessionIdentifier', PositionalBinding = $false)]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#MSFT_IscsiSession')]
    param(
        [Parameter(ParameterSetName = 'ByTargetSideIdentifier', ValueFromPipelineByPropertyName)][string[]]$SessionIdentifier,
        [Parameter(ParameterSetName = 'ByTargetSideIdentifier', ValueFromPipelineByPropertyName)][string[]]$TargetSideIdentifier,
        [Parameter(ParameterSetName = 'ByInitiatorSideIdentifier', ValueFromPipelineByPropertyName)][string[]]$InitiatorSideIdentifier,
        [Parameter(ParameterSetName = 'ByTargetSideIdentifier', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ByInitiatorSideIdentifier', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ByiSCSITarget', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ByInitiatorPort', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ByiSCSITargetPortal', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ByDisk', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ByiSCSIConnection', ValueFromPipelineByPropertyName)]
        [uint32[]]$NumberOfConnections,
        [Parameter(ParameterSetName = 'ByiSCSITarget', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSITarget')]
        [psobject]$IscsiTarget,
        [Parameter(ParameterSetName = 'ByInitiatorPort', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_InitiatorPort')]
        [psobject]$InitiatorPort,
        [Parameter(ParameterSetName = 'ByiSCSITargetPortal', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSITargetPortal')]
        [psobject]$IscsiTargetPortal,
        [Parameter(ParameterSetName = 'ByDisk', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Disk')]
        [psobject]$Disk,
        [Parameter(ParameterSetName = 'ByiSCSIConnection', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSIConnection')]
        [psobject]$IscsiConnection,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $params = $PSBoundParameters
        $piped = @($IscsiTarget, $InitiatorPort, $IscsiTargetPortal, $Disk, $IscsiConnection) | Where-Object { $null -ne $_ } | Select-Object -First 1
        Invoke-WinSimCommand $PSCmdlet $params (Get-WinSimIscsiTarget $piped) {
            param($ctx)
            $iscsi = Get-WinSimIscsi $ctx.State
            $err = Test-WinSimIscsiService $ctx.State $iscsi 'MSFT_iSCSISession'
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            foreach ($session in (Select-WinSimIscsiSessions $ctx $iscsi $params)) { $ctx.Items.Add((New-WinSimIscsiSessionObject $iscsi $session)) }
        }
    }
}

# The session selectors shared by Get-IscsiSession and Get-IscsiConnection.
function Select-WinSimIscsiSessions($Ctx, $Iscsi, [System.Collections.IDictionary]$Params) {
    $all = @($Iscsi.sessions)
    $class = 'MSFT_iSCSISession'
    $viaPortal = { param($s, $address, $port) @($s.connections | Where-Object { (Test-WinSimSameText $_.targetAddress $address) -and [int]$_.targetPort -eq [int]$port }).Count -gt 0 }
    $result = $all
    if ($Params.ContainsKey('IscsiSession')) {
        $result = @($all | Where-Object { Test-WinSimSameText $_.sessionIdentifier ([string]$Params['IscsiSession'].SessionIdentifier) })
    } elseif ($Params.ContainsKey('IscsiTarget')) {
        $result = @($all | Where-Object { Test-WinSimSameText $_.targetNodeAddress ([string]$Params['IscsiTarget'].NodeAddress) })
    } elseif ($Params.ContainsKey('IscsiTargetPortal')) {
        $portal = $Params['IscsiTargetPortal']
        $result = @($all | Where-Object { & $viaPortal $_ ([string]$portal.TargetPortalAddress) ([int]$portal.TargetPortalPortNumber) })
    } elseif ($Params.ContainsKey('Disk')) {
        $number = [int64]$Params['Disk'].Number
        $result = @($all | Where-Object { @($_.disks | Where-Object { $null -ne $_ -and [int64]$_.diskNumber -eq $number }).Count -gt 0 })
    } elseif ($Params.ContainsKey('IscsiConnection')) {
        $id = [string]$Params['IscsiConnection'].ConnectionIdentifier
        $result = @($all | Where-Object { @($_.connections | Where-Object { $_.connectionIdentifier -eq $id }).Count -gt 0 })
    }
    if ($Params.ContainsKey('SessionIdentifier')) {
        $result = Select-WinSimByValues $Ctx $result $class 'SessionIdentifier' @($Params['SessionIdentifier']) { param($s, $v) Test-WinSimLike ([string]$s.sessionIdentifier) $v } -Wildcards
    }
    if ($Params.ContainsKey('TargetSideIdentifier') -and $result.Count -gt 0) {
        $result = Select-WinSimByValues $Ctx $result $class 'TargetSideIdentifier' @($Params['TargetSideIdentifier']) { param($s, $v) Test-WinSimLike ([string]$s.targetSideIdentifier) $v } -Wildcards
    }
    if ($Params.ContainsKey('InitiatorSideIdentifier')) {
        $result = Select-WinSimByValues $Ctx $result $class 'InitiatorSideIdentifier' @($Params['InitiatorSideIdentifier']) { param($s, $v) Test-WinSimLike ([string]$s.initiatorSideIdentifier) $v } -Wildcards
    }
    if ($Params.ContainsKey('NumberOfConnections') -and $result.Count -gt 0) {
        $result = Select-WinSimByValues $Ctx $result $class 'NumberOfConnections' @($Params['NumberOfConnections']) { param($s, $v) @($s.connections).Count -eq [int]$v }
    }
    return , @($result)
}

# The sessions a Register/Unregister call names; a missing one is ISDSC_INVALID_SESSION_ID.
function Select-WinSimIscsiNamedSessions($Ctx, $Iscsi, [string[]]$Ids, [string]$Class) {
    $found = [System.Collections.Generic.List[object]]::new()
    foreach ($id in $Ids) {
        $session = Find-WinSimIscsiSession $Iscsi $id
        if ($null -eq $session) { $Ctx.Items.Add((New-WinSimIscsiError 'efff001c' $Class)) } else { $found.Add($session) }
    }
    return , $found.ToArray()
}

function Register-IscsiSession {
    [CmdletBinding(DefaultParameterSetName = 'BySessionIdentifier', PositionalBinding = $false)]
    param(
        [Parameter(ParameterSetName = 'BySessionIdentifier', Mandatory, ValueFromPipelineByPropertyName)][string[]]$SessionIdentifier,
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSISession')]
        [object[]]$InputObject,
        [bool]$IsMultipathEnabled,
        [string]$ChapUsername,
        [string]$ChapSecret,
        [switch]$PassThru,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $params = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet (Get-WinSimIscsiLogBound $params) (Get-WinSimIscsiTarget $InputObject) {
            param($ctx)
            $iscsi = Get-WinSimIscsi $ctx.State
            $class = 'MSFT_iSCSISession'
            $err = Test-WinSimIscsiService $ctx.State $iscsi $class
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            $ids = if ($params.ContainsKey('InputObject')) { @($InputObject | ForEach-Object { [string]$_.SessionIdentifier }) } else { @($SessionIdentifier) }
            foreach ($session in (Select-WinSimIscsiNamedSessions $ctx $iscsi $ids $class)) {
                if ($params.ContainsKey('IsMultipathEnabled')) { $session.isMultipathEnabled = [bool]$IsMultipathEnabled }
                $session.isPersistent = $true
                $stale = @($iscsi.favorites | Where-Object { Test-WinSimSameText $_.sessionIdentifier $session.sessionIdentifier })
                foreach ($f in $stale) { [void]$iscsi.favorites.Remove($f) }
                Add-WinSimIscsiFavorite $iscsi $session $ChapUsername
                $ctx.Changed = $true
                if ($PassThru) { $ctx.Items.Add((New-WinSimIscsiSessionObject $iscsi $session)) }
            }
        }
    }
}

# Removes the persistent login; it also works after the session logged out (the favorite remains).
function Unregister-IscsiSession {
    [CmdletBinding(DefaultParameterSetName = 'BySessionIdentifier', PositionalBinding = $false)]
    param(
        [Parameter(ParameterSetName = 'BySessionIdentifier', Mandatory, ValueFromPipelineByPropertyName)][string[]]$SessionIdentifier,
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSISession')]
        [object[]]$InputObject,
        [switch]$PassThru,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $params = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet $params (Get-WinSimIscsiTarget $InputObject) {
            param($ctx)
            $iscsi = Get-WinSimIscsi $ctx.State
            $class = 'MSFT_iSCSISession'
            $err = Test-WinSimIscsiService $ctx.State $iscsi $class
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            $ids = if ($params.ContainsKey('InputObject')) { @($InputObject | ForEach-Object { [string]$_.SessionIdentifier }) } else { @($SessionIdentifier) }
            foreach ($id in $ids) {
                $session = Find-WinSimIscsiSession $iscsi $id
                $favorites = @($iscsi.favorites | Where-Object { Test-WinSimSameText $_.sessionIdentifier $id })
                if ($null -eq $session -and $favorites.Count -eq 0) { $ctx.Items.Add((New-WinSimIscsiError 'efff001c' $class)); continue }
                foreach ($f in $favorites) { [void]$iscsi.favorites.Remove($f) }
                if ($null -ne $session) {
                    $session.isPersistent = $false
                    if ($PassThru) { $ctx.Items.Add((New-WinSimIscsiSessionObject $iscsi $session)) }
                }
                $ctx.Changed = $true
            }
        }
    }
}
