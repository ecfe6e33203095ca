# Failures of the iSCSI initiator: CimException with id "HRESULT 0xefffXXXX" (windows-cmdlets.md §8).
$script:WinSimIscsiMessages = @{
    'efff0003' = 'Connection Failed.'
    'efff0009' = 'Authentication Failure.'
    'efff001c' = 'Session Id is invalid.'
    'efff0029' = 'The target name is not found or is marked as hidden from login.'
    'efff003e' = 'The Microsoft iSCSI Initiator Service is not running. Please start the service and retry.'
    'efff003f' = 'The target has already been logged in via an iSCSI session.'
    'efff0043' = 'The target portal was not found.'
    'efff004a' = 'The CHAP secret given is invalid. Maximum size of CHAP secret is 16 bytes. Minimum size is 12 bytes if IPSec is not used.'
    '80041005' = 'Type mismatch for parameter "TargetPortalPortNumber" '
    'efff004c' = 'The initiator CHAP secret given is invalid. Maximum size of CHAP secret is 16 bytes. Minimum size is 12 bytes if IPSec is not used.'
}

function New-WinSimIscsiError([string]$Code, [string]$Class) {
    $hex = $Code.ToLowerInvariant()
    $message = $script:WinSimIscsiMessages[$hex]
    if ($null -eq $message) { $message = 'Failed' }
    $id = "HRESULT 0x$hex"
    # The HRESULT lives in MessageId (so the FQID); StatusCode is the MI result, MI_RESULT_FAILED (1),
    # as for Storage and SMB errors (MMI CimException.StatusCode = CIMStatusCode; fidelity review F7).
    $exception = [CsiProxy.WinSim.CimException]::new($message, 'Failed', [uint32]1, $id)
    $record = [System.Management.Automation.ErrorRecord]::new($exception, $id, 'NotSpecified', $Class)
    $record.CategoryInfo.TargetName = $Class
    $record.CategoryInfo.TargetType = "ROOT/Microsoft/Windows/Storage/$Class"
    return $record
}

# Every iSCSI cmdlet needs the MSiSCSI service: the System area's service when the host declares
# one (so Start-Service MSiSCSI matters), else the scenario's iscsi.initiator.serviceRunning.
function Test-WinSimIscsiService($State, $Iscsi, [string]$Class) {
    $running = [bool](Get-WinSimField $Iscsi.initiator 'serviceRunning' $true)
    $system = Get-WinSimField $State 'system'
    if ($null -ne $system) {
        $service = @(Get-WinSimField $system 'services' @()) | Where-Object { $null -ne $_ -and $_.name -eq 'MSiSCSI' } | Select-Object -First 1
        # 4 = ServiceControllerStatus.Running.
        if ($null -ne $service) { $running = (Get-WinSimServiceStatus $service (Get-WinSimNow)) -eq 4 }
    }
    if ($running) { return $null }
    return (New-WinSimIscsiError 'efff003e' $Class)
}

# Windows takes CHAP secrets of 12 to 16 bytes (without IPsec).
function Test-WinSimChapSecretLength([string]$Secret) {
    $bytes = [System.Text.Encoding]::UTF8.GetByteCount($Secret)
    return ($bytes -ge 12 -and $bytes -le 16)
}
