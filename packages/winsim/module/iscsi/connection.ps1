# Connections (MSFT_iSCSIConnection): one per session here, to the portal the login went through.
function Get-IscsiConnection {
    [CmdletBinding(DefaultParameterSetName = 'ByConnectionIdentifier', PositionalBinding = $false)]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#MSFT_iSCSIConnection')]
    param(
        [Parameter(ParameterSetName = 'ByConnectionIdentifier', ValueFromPipelineByPropertyName)][string[]]$ConnectionIdentifier,
        [Parameter(ParameterSetName = 'ByInitiatorSideIdentifier', ValueFromPipelineByPropertyName)][string[]]$InitiatorSideIdentifier,
        [Parameter(ParameterSetName = 'ByTargetSideIdentifier', ValueFromPipelineByPropertyName)][string[]]$TargetSideIdentifier,
        [Parameter(ParameterSetName = 'ByInitiatorPortalAddress', ValueFromPipelineByPropertyName)][string[]]$InitiatorPortalAddress,
        [Parameter(ValueFromPipelineByPropertyName)][uint16[]]$InitiatorPortalPortNumber,
        [Parameter(ValueFromPipelineByPropertyName)][uint16[]]$InititorIPAdressListNumber,
        [Parameter(ParameterSetName = 'ByiSCSITarget', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSITarget')]
        [psobject]$IscsiTarget,
        [Parameter(ParameterSetName = 'ByInitiatorPort', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_InitiatorPort')]
        [psobject]$InitiatorPort,
        [Parameter(ParameterSetName = 'ByiSCSISession', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSISession')]
        [psobject]$IscsiSession,
        [Parameter(ParameterSetName = 'ByiSCSITargetPortal', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_iSCSITargetPortal')]
        [psobject]$iSCSITargetPortal,
        [Parameter(ParameterSetName = 'ByDisk', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Disk')]
        [psobject]$Disk,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $params = $PSBoundParameters
        $piped = @($IscsiTarget, $InitiatorPort, $IscsiSession, $iSCSITargetPortal, $Disk) | Where-Object { $null -ne $_ } | Select-Object -First 1
        Invoke-WinSimCommand $PSCmdlet $params (Get-WinSimIscsiTarget $piped) {
            param($ctx)
            $iscsi = Get-WinSimIscsi $ctx.State
            $class = 'MSFT_iSCSIConnection'
            $err = Test-WinSimIscsiService $ctx.State $iscsi $class
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            $selectors = @{}
            foreach ($key in @('IscsiTarget', 'IscsiSession', 'Disk', 'InitiatorSideIdentifier', 'TargetSideIdentifier')) { if ($params.ContainsKey($key)) { $selectors[$key] = $params[$key] } }
            if ($params.ContainsKey('iSCSITargetPortal')) { $selectors['IscsiTargetPortal'] = $params['iSCSITargetPortal'] }
            $sessions = Select-WinSimIscsiSessions $ctx $iscsi $selectors
            $connections = @($sessions | ForEach-Object { @($_.connections) } | Where-Object { $null -ne $_ })
            if ($params.ContainsKey('iSCSITargetPortal')) {
                $portal = $params['iSCSITargetPortal']
                $connections = @($connections | Where-Object { (Test-WinSimSameText $_.targetAddress ([string]$portal.TargetPortalAddress)) -and [int]$_.targetPort -eq [int]$portal.TargetPortalPortNumber })
            }
            if ($params.ContainsKey('ConnectionIdentifier')) {
                $connections = Select-WinSimByValues $ctx $connections $class 'ConnectionIdentifier' @($ConnectionIdentifier) { param($c, $v) Test-WinSimLike ([string]$c.connectionIdentifier) $v } -Wildcards
            }
            if ($params.ContainsKey('InitiatorPortalAddress')) {
                $connections = Select-WinSimByValues $ctx $connections $class 'InitiatorPortalAddress' @($InitiatorPortalAddress) { param($c, $v) Test-WinSimLike ([string]$c.initiatorAddress) $v } -Wildcards
            }
            if ($params.ContainsKey('InitiatorPortalPortNumber') -and $connections.Count -gt 0) {
                $connections = Select-WinSimByValues $ctx $connections $class 'InitiatorPortalPortNumber' @($InitiatorPortalPortNumber) { param($c, $v) [int]$c.initiatorPort -eq [int]$v }
            }
            foreach ($c in $connections) { $ctx.Items.Add((New-WinSimIscsiConnectionObject $c)) }
        }
    }
}
