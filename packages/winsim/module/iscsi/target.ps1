# Targets (MSFT_iSCSITarget): those the portals discovered, plus any the initiator is logged in to.
function Get-IscsiTarget {
    [CmdletBinding(DefaultParameterSetName = 'ByNodeAddress', PositionalBinding = $false)]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#MSFT_IscsiTarget')]
    param(
        [Parameter(ParameterSetName = 'ByNodeAddress', ValueFromPipelineByPropertyName)][string[]]$NodeAddress,
        [Parameter(ParameterSetName = 'ByiSCSIConnection', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSIConnection')]
        [psobject]$IscsiConnection,
        [Parameter(ParameterSetName = 'ByiSCSISession', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSISession')]
        [psobject]$IscsiSession,
        [Parameter(ParameterSetName = 'ByiSCSITargetPortal', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSITargetPortal')]
        [psobject]$IscsiTargetPortal,
        [Parameter(ParameterSetName = 'ByInitiatorPort', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_InitiatorPort')]
        [psobject]$InitiatorPort,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $params = $PSBoundParameters
        $piped = @($IscsiConnection, $IscsiSession, $IscsiTargetPortal, $InitiatorPort) | Where-Object { $null -ne $_ } | Select-Object -First 1
        Invoke-WinSimCommand $PSCmdlet $params (Get-WinSimIscsiTarget $piped) {
            param($ctx)
            $iscsi = Get-WinSimIscsi $ctx.State
            $err = Test-WinSimIscsiService $ctx.State $iscsi 'MSFT_iSCSITarget'
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            $names = Get-WinSimIscsiTargetNames $iscsi
            if ($params.ContainsKey('IscsiTargetPortal')) {
                $portal = Find-WinSimIscsiPortal $iscsi ([string]$IscsiTargetPortal.TargetPortalAddress) ([int]$IscsiTargetPortal.TargetPortalPortNumber)
                $names = if ($null -eq $portal) { @() } else { @($portal.discovered | Where-Object { $null -ne $_ }) }
            } elseif ($params.ContainsKey('IscsiSession') -or $params.ContainsKey('IscsiConnection')) {
                $session = $null
                if ($params.ContainsKey('IscsiSession')) { $session = Find-WinSimIscsiSession $iscsi ([string]$IscsiSession.SessionIdentifier) }
                else {
                    $id = [string]$IscsiConnection.ConnectionIdentifier
                    $session = @($iscsi.sessions | Where-Object { @($_.connections | Where-Object { $_.connectionIdentifier -eq $id }).Count -gt 0 })[0]
                }
                $names = if ($null -eq $session) { @() } else { @($names | Where-Object { Test-WinSimSameText $_ $session.targetNodeAddress }) }
            } elseif ($params.ContainsKey('InitiatorPort')) {
                # One software initiator port serves every target.
            } elseif ($params.ContainsKey('NodeAddress')) {
                $names = Select-WinSimByValues $ctx $names 'MSFT_iSCSITarget' 'NodeAddress' @($NodeAddress) { param($n, $v) Test-WinSimLike $n $v } -Wildcards
            }
            foreach ($name in $names) { $ctx.Items.Add((New-WinSimIscsiTargetObject $iscsi ([string]$name))) }
        }
    }
}
