# Discovery portals (MSFT_iSCSITargetPortal): adding or updating one runs SendTargets discovery
# against the scenario's server at that address and port; an unknown address is unreachable.
function New-IscsiTargetPortal {
    [CmdletBinding(PositionalBinding = $false)]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#MSFT_IscsiTargetPortal')]
    param(
        [Parameter(Mandatory)][Alias('TA')][string]$TargetPortalAddress,
        [uint16]$TargetPortalPortNumber,
        [Parameter(ValueFromPipelineByPropertyName)][Alias('IA')][string]$InitiatorPortalAddress,
        [bool]$IsHeaderDigest,
        [bool]$IsDataDigest,
        [string]$AuthenticationType,
        [Parameter(ValueFromPipelineByPropertyName)][string]$InitiatorInstanceName,
        [string]$ChapUsername,
        [string]$ChapSecret,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $params = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet (Get-WinSimIscsiLogBound $params) $null {
            param($ctx)
            $iscsi = Get-WinSimIscsi $ctx.State
            $err = Test-WinSimIscsiService $ctx.State $iscsi 'MSFT_iSCSITargetPortal'
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            $port = Get-WinSimIscsiPort $TargetPortalPortNumber
            $server = Find-WinSimIscsiServer $iscsi $TargetPortalAddress $port
            if ($null -eq $server) { $ctx.Items.Add((New-WinSimIscsiError 'efff0003' 'MSFT_iSCSITargetPortal')); return }
            $portal = Find-WinSimIscsiPortal $iscsi $TargetPortalAddress $port
            if ($null -eq $portal) {
                $portal = [pscustomobject]@{
                    address = $TargetPortalAddress; port = $port
                    initiatorInstanceName = if ($params.ContainsKey('InitiatorInstanceName')) { $InitiatorInstanceName } else { $null }
                    initiatorPortalAddress = if ($params.ContainsKey('InitiatorPortalAddress')) { $InitiatorPortalAddress } else { $null }
                    isHeaderDigest = [bool]$IsHeaderDigest; isDataDigest = [bool]$IsDataDigest; discovered = @()
                }
                $iscsi.portals.Add($portal)
            }
            $portal.discovered = Get-WinSimIscsiDiscovered $server
            $ctx.Changed = $true
            $ctx.Items.Add((New-WinSimIscsiPortalObject $portal))
        }
    }
}

function Get-IscsiTargetPortal {
    [CmdletBinding(DefaultParameterSetName = 'ByTargetPortalAddress', PositionalBinding = $false)]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#MSFT_IscsiTargetPortal')]
    param(
        [Parameter(ParameterSetName = 'ByTargetPortalAddress', ValueFromPipelineByPropertyName)][string[]]$InitiatorPortalAddress,
        [Parameter(ParameterSetName = 'ByTargetPortalAddress', Position = 0, ValueFromPipelineByPropertyName)][string[]]$TargetPortalAddress,
        [Parameter(ParameterSetName = 'ByTargetPortalAddress', ValueFromPipelineByPropertyName)][string[]]$InitiatorInstanceName,
        [Parameter(ParameterSetName = 'ByTargetPortalAddress', ValueFromPipelineByPropertyName)][uint16[]]$TargetPortalPortNumber,
        [Parameter(ParameterSetName = 'ByTargetPortalAddress', ValueFromPipelineByPropertyName)][bool[]]$IsHeaderDigest,
        [Parameter(ParameterSetName = 'ByTargetPortalAddress', ValueFromPipelineByPropertyName)][bool[]]$IsDataDigest,
        [Parameter(ParameterSetName = 'ByiSCSISession', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSISession')]
        [psobject]$iSCSISession,
        [Parameter(ParameterSetName = 'ByiSCSIConnection', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSIConnection')]
        [psobject]$iSCSIConnection,
        [Parameter(ParameterSetName = 'ByiSCSITarget', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSITarget')]
        [psobject]$iSCSITarget,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $params = $PSBoundParameters
        $piped = @($iSCSISession, $iSCSIConnection, $iSCSITarget) | Where-Object { $null -ne $_ } | Select-Object -First 1
        Invoke-WinSimCommand $PSCmdlet $params (Get-WinSimIscsiTarget $piped) {
            param($ctx)
            $iscsi = Get-WinSimIscsi $ctx.State
            $err = Test-WinSimIscsiService $ctx.State $iscsi 'MSFT_iSCSITargetPortal'
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            foreach ($portal in (Select-WinSimIscsiPortals $ctx $iscsi $params)) { $ctx.Items.Add((New-WinSimIscsiPortalObject $portal)) }
        }
    }
}

function Select-WinSimIscsiPortals($Ctx, $Iscsi, [System.Collections.IDictionary]$Params) {
    $all = @($Iscsi.portals)
    $class = 'MSFT_iSCSITargetPortal'
    if ($Params.ContainsKey('iSCSISession') -or $Params.ContainsKey('iSCSIConnection')) {
        $connections = @()
        if ($Params.ContainsKey('iSCSISession')) {
            $session = Find-WinSimIscsiSession $Iscsi ([string]$Params['iSCSISession'].SessionIdentifier)
            if ($null -ne $session) { $connections = @($session.connections) }
        } else {
            $id = [string]$Params['iSCSIConnection'].ConnectionIdentifier
            $connections = @($Iscsi.sessions | ForEach-Object { @($_.connections) } | Where-Object { $null -ne $_ -and $_.connectionIdentifier -eq $id })
        }
        return , @($all | Where-Object { $p = $_; @($connections | Where-Object { (Test-WinSimSameText $_.targetAddress $p.address) -and [int]$_.targetPort -eq [int]$p.port }).Count -gt 0 })
    }
    if ($Params.ContainsKey('iSCSITarget')) {
        $node = [string]$Params['iSCSITarget'].NodeAddress
        return , @($all | Where-Object { @($_.discovered | Where-Object { Test-WinSimSameText $_ $node }).Count -gt 0 })
    }
    $result = $all
    if ($Params.ContainsKey('TargetPortalAddress')) {
        $result = Select-WinSimByValues $Ctx $result $class 'TargetPortalAddress' @($Params['TargetPortalAddress']) { param($p, $v) Test-WinSimLike ([string]$p.address) $v } -Wildcards
    }
    if ($Params.ContainsKey('TargetPortalPortNumber') -and $result.Count -gt 0) {
        $result = Select-WinSimByValues $Ctx $result $class 'TargetPortalPortNumber' @($Params['TargetPortalPortNumber']) { param($p, $v) [int]$p.port -eq [int]$v }
    }
    if ($Params.ContainsKey('InitiatorPortalAddress') -and $result.Count -gt 0) {
        $result = Select-WinSimByValues $Ctx $result $class 'InitiatorPortalAddress' @($Params['InitiatorPortalAddress']) { param($p, $v) Test-WinSimLike ([string](Get-WinSimField $p 'initiatorPortalAddress' '')) $v } -Wildcards
    }
    if ($Params.ContainsKey('InitiatorInstanceName') -and $result.Count -gt 0) {
        $result = Select-WinSimByValues $Ctx $result $class 'InitiatorInstanceName' @($Params['InitiatorInstanceName']) { param($p, $v) Test-WinSimLike ([string](Get-WinSimField $p 'initiatorInstanceName' '')) $v } -Wildcards
    }
    if ($Params.ContainsKey('IsHeaderDigest') -and $result.Count -gt 0) {
        $result = Select-WinSimByValues $Ctx $result $class 'IsHeaderDigest' @($Params['IsHeaderDigest']) { param($p, $v) [bool](Get-WinSimField $p 'isHeaderDigest' $false) -eq $v }
    }
    if ($Params.ContainsKey('IsDataDigest') -and $result.Count -gt 0) {
        $result = Select-WinSimByValues $Ctx $result $class 'IsDataDigest' @($Params['IsDataDigest']) { param($p, $v) [bool](Get-WinSimField $p 'isDataDigest' $false) -eq $v }
    }
    return , @($result)
}

# The portals a by-address call names: every port of the address unless a port is given.
function Select-WinSimIscsiPortalsByAddress($Ctx, $Iscsi, [string[]]$Addresses, $Port, [bool]$HasPort) {
    $found = [System.Collections.Generic.List[object]]::new()
    foreach ($address in $Addresses) {
        $hits = @($Iscsi.portals | Where-Object { (Test-WinSimSameText $_.address $address) -and (-not $HasPort -or [int]$_.port -eq (Get-WinSimIscsiPort $Port)) })
        if ($hits.Count -eq 0) { $Ctx.Items.Add((New-WinSimNotFound 'MSFT_iSCSITargetPortal' 'TargetPortalAddress' $address)) }
        foreach ($h in $hits) { if (-not $found.Contains($h)) { $found.Add($h) } }
    }
    return , $found.ToArray()
}

function Select-WinSimIscsiPortalsByObject($Ctx, $Iscsi, [object[]]$Objects) {
    $found = [System.Collections.Generic.List[object]]::new()
    foreach ($o in $Objects) {
        $hit = Find-WinSimIscsiPortal $Iscsi ([string]$o.TargetPortalAddress) ([int]$o.TargetPortalPortNumber)
        if ($null -eq $hit) { $Ctx.Items.Add((New-WinSimIscsiError 'efff0043' 'MSFT_iSCSITargetPortal')) } else { $found.Add($hit) }
    }
    return , $found.ToArray()
}

function Remove-IscsiTargetPortal {
    [CmdletBinding(DefaultParameterSetName = 'ByTargetPortalAddress', SupportsShouldProcess, ConfirmImpact = 'High', PositionalBinding = $false)]
    param(
        [Parameter(ParameterSetName = 'ByTargetPortalAddress', Mandatory, ValueFromPipelineByPropertyName)][string[]]$TargetPortalAddress,
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSITargetPortal')]
        [object[]]$InputObject,
        [string]$InitiatorInstanceName,
        [string]$InitiatorPortalAddress,
        [int]$TargetPortalPortNumber,
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
            $err = Test-WinSimIscsiService $ctx.State $iscsi 'MSFT_iSCSITargetPortal'
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            # The cmdlet hands its Int32 port to the method's UInt16 parameter and fails (windows-powershell-docs#3061).
            if ($params.ContainsKey('TargetPortalPortNumber')) { $ctx.Items.Add((New-WinSimIscsiError '80041005' 'MSFT_iSCSITargetPortal')); return }
            $portals = if ($params.ContainsKey('InputObject')) { Select-WinSimIscsiPortalsByObject $ctx $iscsi @($InputObject) }
            else { Select-WinSimIscsiPortalsByAddress $ctx $iscsi $TargetPortalAddress $TargetPortalPortNumber $false }
            foreach ($portal in $portals) {
                if (-not $caller.ShouldProcess("$($portal.address):$($portal.port)", 'Remove')) { continue }
                [void]$iscsi.portals.Remove($portal)
                $ctx.Changed = $true
                if ($PassThru) { $ctx.Items.Add((New-WinSimIscsiPortalObject $portal)) }
            }
        }
    }
}

function Update-IscsiTargetPortal {
    [CmdletBinding(DefaultParameterSetName = 'ByTargetPortalAddress', PositionalBinding = $false)]
    param(
        [Parameter(ParameterSetName = 'ByTargetPortalAddress', Mandatory, Position = 0, ValueFromPipelineByPropertyName)][string[]]$TargetPortalAddress,
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSITargetPortal')]
        [object[]]$InputObject,
        [string]$InitiatorInstanceName,
        [string]$InitiatorPortalAddress,
        [uint16]$TargetPortalPortNumber,
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
            $err = Test-WinSimIscsiService $ctx.State $iscsi 'MSFT_iSCSITargetPortal'
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            $portals = if ($params.ContainsKey('InputObject')) { Select-WinSimIscsiPortalsByObject $ctx $iscsi @($InputObject) }
            else { Select-WinSimIscsiPortalsByAddress $ctx $iscsi $TargetPortalAddress $TargetPortalPortNumber $params.ContainsKey('TargetPortalPortNumber') }
            foreach ($portal in $portals) {
                $server = Find-WinSimIscsiServer $iscsi $portal.address ([int]$portal.port)
                if ($null -eq $server) { $ctx.Items.Add((New-WinSimIscsiError 'efff0003' 'MSFT_iSCSITargetPortal')); continue }
                $portal.discovered = Get-WinSimIscsiDiscovered $server
                $ctx.Changed = $true
                if ($PassThru) { $ctx.Items.Add((New-WinSimIscsiPortalObject $portal)) }
            }
        }
    }
}
