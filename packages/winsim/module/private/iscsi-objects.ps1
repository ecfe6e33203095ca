# MSFT_iSCSI* instances (and root/wmi's MSiSCSIInitiator_* ones, iscsi-wmi.ps1): no enum-valued
# properties, so raw and shown values are the same (§7.7).
function New-WinSimIscsiObject([string]$Class, [System.Collections.Specialized.OrderedDictionary]$Properties, [string]$Namespace = 'ROOT/Microsoft/Windows/Storage') {
    $base = [CsiProxy.WinSim.SimCimInstance]::new($Class)
    foreach ($key in $Properties.Keys) { $base.Set($key, $Properties[$key]) }
    $object = [psobject]::new($base)
    foreach ($key in $Properties.Keys) { $object.PSObject.Properties.Add([psnoteproperty]::new($key, $Properties[$key])) }
    $names = $object.PSObject.TypeNames
    $names.Clear()
    $prefix = 'Microsoft.Management.Infrastructure.CimInstance#'
    $names.Add("$prefix$Namespace/$Class")
    $names.Add("$prefix$Class")
    $names.Add('Microsoft.Management.Infrastructure.CimInstance')
    $names.Add('System.Object')
    return $object
}

function New-WinSimIscsiPortalObject($Portal) {
    return (New-WinSimIscsiObject 'MSFT_iSCSITargetPortal' ([ordered]@{
                InitiatorInstanceName  = Get-WinSimField $Portal 'initiatorInstanceName'
                InitiatorPortalAddress = Get-WinSimField $Portal 'initiatorPortalAddress'
                IsDataDigest           = [bool](Get-WinSimField $Portal 'isDataDigest' $false)
                IsHeaderDigest         = [bool](Get-WinSimField $Portal 'isHeaderDigest' $false)
                TargetPortalAddress    = [string]$Portal.address
                TargetPortalPortNumber = [uint16]$Portal.port
                PSComputerName         = $null
            }))
}

function New-WinSimIscsiTargetObject($Iscsi, [string]$NodeAddress) {
    $connected = (Get-WinSimIscsiTargetSessions $Iscsi $NodeAddress).Count -gt 0
    return (New-WinSimIscsiObject 'MSFT_iSCSITarget' ([ordered]@{
                IsConnected    = $connected
                NodeAddress    = $NodeAddress
                PSComputerName = $null
            }))
}

# Get-IscsiSession reports the target's IQN lower-cased (PowerShell/PowerShell#17306).
function New-WinSimIscsiSessionObject($Iscsi, $Session) {
    return (New-WinSimIscsiObject 'MSFT_iSCSISession' ([ordered]@{
                AuthenticationType      = [string]$Session.authenticationType
                InitiatorInstanceName   = 'ROOT\ISCSIPRT\0000_0'
                InitiatorNodeAddress    = [string]$Iscsi.initiator.nodeAddress
                InitiatorPortalAddress  = '0.0.0.0'
                InitiatorSideIdentifier = [string]$Session.initiatorSideIdentifier
                IsConnected             = $true
                IsDataDigest            = $false
                IsDiscovered            = $true
                IsHeaderDigest          = $false
                IsPersistent            = [bool]$Session.isPersistent
                NumberOfConnections     = [uint32]@($Session.connections).Count
                SessionIdentifier       = [string]$Session.sessionIdentifier
                TargetNodeAddress       = ([string]$Session.targetNodeAddress).ToLowerInvariant()
                TargetSideIdentifier    = [string]$Session.targetSideIdentifier
                PSComputerName          = $null
            }))
}

function New-WinSimIscsiConnectionObject($Connection) {
    return (New-WinSimIscsiObject 'MSFT_iSCSIConnection' ([ordered]@{
                ConnectionIdentifier = [string]$Connection.connectionIdentifier
                InitiatorAddress     = [string](Get-WinSimField $Connection 'initiatorAddress' '0.0.0.0')
                InitiatorPortNumber  = [uint32](Get-WinSimField $Connection 'initiatorPort' 0)
                TargetAddress        = [string]$Connection.targetAddress
                TargetPortNumber     = [uint32]$Connection.targetPort
                PSComputerName       = $null
            }))
}
