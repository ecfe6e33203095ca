# root/wmi MSiSCSIInitiator_SessionClass: every iSCSI session with its connections and the devices on
# it, in one CIM query (learn.microsoft.com/previous-versions/windows/desktop/iscsidisc/
# msiscsiinitiator-sessionclass; -connectioninformation; -deviceonsession). OpenStack's os-win read
# disk numbers from its Devices[].DeviceNumber (os_win/utils/storage/initiator/base_iscsi_utils.py),
# and Windows Server 2016 SOFS scripts pipe its DeviceNumber to Get-Disk -Number, so DeviceNumber is
# the disk number Get-Disk shows. Unverified, modelled the less convenient way: TargetName is
# lower-cased as Get-IscsiSession's TargetNodeAddress is (PowerShell/PowerShell#17306), and with the
# initiator service stopped the query fails rather than answering no sessions.
function New-WinSimWmiObject([string]$Class, [System.Collections.Specialized.OrderedDictionary]$Properties) {
    return (New-WinSimIscsiObject $Class $Properties 'root/wmi')
}

function Get-WinSimIscsiWmiSessions($State) {
    $iscsi = Get-WinSimIscsi $State
    if ($null -ne (Test-WinSimIscsiService $State $iscsi 'MSiSCSIInitiator_SessionClass')) {
        return (New-WinSimCimError 'Generic failure ' 'Failed' 1 '0x80041001' 'NotSpecified' 'root/wmi:MSiSCSIInitiator_SessionClass')
    }
    return , @(foreach ($session in @($iscsi.sessions)) {
            $target = ([string]$session.targetNodeAddress).ToLowerInvariant()
            $connections = @(foreach ($c in @($session.connections | Where-Object { $null -ne $_ })) {
                    New-WinSimWmiObject 'MSIscsiInitiator_ConnectionInformation' ([ordered]@{
                            ConnectionID     = [string]$c.connectionIdentifier
                            InitiatorAddress = [string](Get-WinSimField $c 'initiatorAddress' '0.0.0.0')
                            TargetAddress    = [string]$c.targetAddress
                            InitiatorPort    = [uint16](Get-WinSimField $c 'initiatorPort' 0)
                            TargetPort       = [uint16]$c.targetPort
                            CID              = [byte[]]@(0, 1)
                        })
                })
            $devices = @(foreach ($d in @($session.disks | Where-Object { $null -ne $_ })) {
                    $number = [uint32]$d.diskNumber
                    New-WinSimWmiObject 'MSIscsiInitiator_DeviceOnSession' ([ordered]@{
                            InitiatorName       = 'ROOT\ISCSIPRT\0000_0'
                            TargetName          = $target
                            ScsiPortNumber      = [byte]2
                            ScsiPathId          = [byte]0
                            ScsiTargetId        = [byte]0
                            ScsiLun             = [byte]$d.lun
                            DeviceInterfaceGuid = '{53f56307-b6bf-11d0-94f2-00a0c91efb8b}'
                            DeviceInterfaceName = "\\?\scsi#disk&ven_winsim&prod_iscsi#$number#{53f56307-b6bf-11d0-94f2-00a0c91efb8b}"
                            LegacyName          = "\\.\PhysicalDrive$number"
                            # FILE_DEVICE_DISK.
                            DeviceType          = [uint32]7
                            DeviceNumber        = $number
                            PartitionNumber     = [uint32]0
                        })
                })
            New-WinSimWmiObject 'MSiSCSIInitiator_SessionClass' ([ordered]@{
                    SessionId             = [string]$session.sessionIdentifier
                    InitiatorName         = 'ROOT\ISCSIPRT\0000_0'
                    TargetNodeName        = $target
                    TargetName            = $target
                    ISID                  = [byte[]]@(0x40, 0, 0x01, 0x37, 0, 0)
                    TSID                  = [byte[]]@(0, 1)
                    ConnectionInformation = $connections
                    Devices               = $devices
                    PSComputerName        = $null
                })
        })
}
