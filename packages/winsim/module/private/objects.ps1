# A CIM-like object: raw values on psBase.CimInstanceProperties, shown values as properties, real type names.
function New-WinSimCimObject([string]$Class, [System.Collections.Specialized.OrderedDictionary]$Shown, [System.Collections.IDictionary]$Raw) {
    $base = [CsiProxy.WinSim.SimCimInstance]::new($Class)
    foreach ($key in $Raw.Keys) { $base.Set($key, $Raw[$key]) }
    $object = [psobject]::new($base)
    foreach ($key in $Shown.Keys) { $object.PSObject.Properties.Add([psnoteproperty]::new($key, $Shown[$key])) }
    $names = $object.PSObject.TypeNames
    $names.Clear()
    $prefix = 'Microsoft.Management.Infrastructure.CimInstance#'
    $names.Add("${prefix}ROOT/Microsoft/Windows/Storage/$Class")
    $names.Add("${prefix}ROOT/Microsoft/Windows/Storage/MSFT_StorageObject")
    $names.Add("$prefix$Class")
    $names.Add("${prefix}MSFT_StorageObject")
    $names.Add('Microsoft.Management.Infrastructure.CimInstance')
    $names.Add('System.Object')
    return $object
}

function Add-WinSimCimProperties([System.Collections.Specialized.OrderedDictionary]$Shown, [System.Collections.IDictionary]$Raw, [System.Collections.IDictionary]$Cim) {
    foreach ($key in $Cim.Keys) {
        $Raw[$key] = $Cim[$key]
        if (-not $Shown.Contains($key)) { $Shown[$key] = $Cim[$key] }
    }
}

function New-WinSimDiskObject($State, $Disk) {
    $number = [uint32]$Disk.number
    $parts = @(Get-WinSimDiskPartitions $State $number)
    $allocated = [uint64]0
    foreach ($p in $parts) { $allocated += [uint64]$p.size }
    $largest = [uint64]0
    if ([int]$Disk.partitionStyle -ne 0) {
        foreach ($extent in (Get-WinSimFreeExtents $State $Disk)) { if ([uint64]$extent.Size -gt $largest) { $largest = [uint64]$extent.Size } }
    }
    $offline = [bool](Get-WinSimField $Disk 'isOffline' $false)
    $status = if ($offline) { 53267 } else { 53264 }
    $reason = Get-WinSimField $Disk 'offlineReason'
    $provisioning = [int](Get-WinSimField $Disk 'provisioningType' 2)
    $raw = [ordered]@{
        PartitionStyle    = [uint16]$Disk.partitionStyle
        ProvisioningType  = [uint16]$provisioning
        OperationalStatus = [uint16[]]@($status)
        HealthStatus      = [uint16]0
        BusType           = [uint16]$Disk.busType
        UniqueIdFormat    = [uint16](Get-WinSimField $Disk 'uniqueIdFormat' 0)
        OfflineReason     = if ($null -eq $reason) { $null } else { [uint16]$reason }
    }
    $shown = [ordered]@{
        PartitionStyle    = Get-WinSimShown $script:WinSimPartitionStyles $Disk.partitionStyle
        ProvisioningType  = Get-WinSimShown $script:WinSimProvisioningTypes $provisioning
        OperationalStatus = if ($offline) { 'Offline' } else { 'Online' }
        HealthStatus      = 'Healthy'
        BusType           = Get-WinSimShown $script:WinSimBusTypes $Disk.busType
        UniqueIdFormat    = Get-WinSimShown $script:WinSimUniqueIdFormats (Get-WinSimField $Disk 'uniqueIdFormat' 0) 'Vendor Specific'
        OfflineReason     = Get-WinSimShown $script:WinSimOfflineReasons $reason
    }
    $signature = Get-WinSimField $Disk 'signature'
    Add-WinSimCimProperties $shown $raw ([ordered]@{
        ObjectId             = "{1}\\WINSIM\root/Microsoft/Windows/Storage/Providers_v2\WSP_Disk.ObjectId=`"$($script:WinSimHostId):DI:$($Disk.path)`""
        PassThroughClass     = $null
        PassThroughIds       = $null
        PassThroughNamespace = $null
        PassThroughServer    = $null
        UniqueId             = [string](Get-WinSimField $Disk 'uniqueId' '')
        AdapterSerialNumber  = ''
        AllocatedSize        = $allocated
        BootFromDisk         = [bool](Get-WinSimField $Disk 'isBoot' $false)
        FirmwareVersion      = [string](Get-WinSimField $Disk 'firmwareVersion' '1.0')
        FriendlyName         = [string](Get-WinSimField $Disk 'friendlyName' '')
        Guid                 = Get-WinSimField $Disk 'guid'
        IsBoot               = [bool](Get-WinSimField $Disk 'isBoot' $false)
        IsClustered          = [bool](Get-WinSimField $Disk 'isClustered' $false)
        IsHighlyAvailable    = $false
        IsOffline            = $offline
        IsReadOnly           = [bool](Get-WinSimField $Disk 'isReadOnly' $false)
        IsScaleOut           = $false
        IsSystem             = [bool](Get-WinSimField $Disk 'isSystem' $false)
        LargestFreeExtent    = $largest
        Location             = Get-WinSimField $Disk 'location'
        LogicalSectorSize    = [uint32](Get-WinSimField $Disk 'logicalSectorSize' 512)
        Manufacturer         = Get-WinSimField $Disk 'manufacturer'
        Model                = Get-WinSimField $Disk 'model'
        Number               = $number
        NumberOfPartitions   = [uint32]$parts.Count
        Path                 = [string]$Disk.path
        PhysicalSectorSize   = [uint32](Get-WinSimField $Disk 'physicalSectorSize' 4096)
        SerialNumber         = Get-WinSimField $Disk 'serialNumber'
        Signature            = if ($null -eq $signature) { $null } else { [uint32]$signature }
        Size                 = Get-WinSimCachedDiskSize $Disk
        PSComputerName       = $null
    })
    $object = New-WinSimCimObject 'MSFT_Disk' $shown $raw
    $object.PSObject.Properties.Add([psaliasproperty]::new('DiskNumber', 'Number'))
    return $object
}

function Get-WinSimAccessPaths($State, $Partition) {
    $volume = Get-WinSimField $Partition 'volume'
    if ($null -eq $volume) { return , [string[]]::new(1) }
    $paths = [System.Collections.Generic.List[string]]::new()
    $letter = Get-WinSimField $Partition 'driveLetter'
    if ($null -ne $letter -and [string]$letter -ne '') { $paths.Add("$($letter):\") }
    foreach ($p in @(Get-WinSimField $Partition 'accessPaths' @())) { if ($null -ne $p) { $paths.Add([string]$p) } }
    $paths.Add("\\?\Volume{$volume}\")
    return , $paths.ToArray()
}

function New-WinSimPartitionObject($State, $Partition) {
    $disk = Get-WinSimDisk $State $Partition.diskNumber
    $offset = [uint64]$Partition.offset
    $gpt = Get-WinSimField $Partition 'gptType'
    $mbr = Get-WinSimField $Partition 'mbrType'
    $type = if ($null -ne $gpt) {
        $name = $script:WinSimGptTypeNames[([string]$gpt).ToLowerInvariant()]
        if ($null -eq $name) { 'Unknown' } else { $name }
    } else { Get-WinSimShown $script:WinSimMbrTypeNames $mbr }
    $letter = Get-WinSimField $Partition 'driveLetter'
    $letterChar = if ($null -eq $letter -or [string]$letter -eq '') { [char]0 } else { [char]([string]$letter).ToUpperInvariant() }
    $diskOffline = [bool](Get-WinSimField $disk 'isOffline' $false)
    $raw = [ordered]@{ OperationalStatus = [uint16]$(if ($diskOffline) { 4 } else { 1 }) }
    $shown = [ordered]@{
        OperationalStatus = if ($diskOffline) { 'Offline' } else { 'Online' }
        Type              = $type
        DiskPath          = [string]$disk.path
    }
    $uniqueId = '{00000000-0000-0000-' + (Format-WinSimOffsetHex $offset) + '}' + [string](Get-WinSimField $disk 'uniqueId' '')
    Add-WinSimCimProperties $shown $raw ([ordered]@{
        ObjectId             = "{1}\\WINSIM\root/Microsoft/Windows/Storage/Providers_v2\WSP_Partition.ObjectId=`"$($script:WinSimHostId):PR:{00000000-0000-0000-$(Format-WinSimOffsetHex $offset)}$($disk.path)`""
        PassThroughClass     = $null
        PassThroughIds       = $null
        PassThroughNamespace = $null
        PassThroughServer    = $null
        UniqueId             = $uniqueId
        AccessPaths          = Get-WinSimAccessPaths $State $Partition
        DiskId               = [string]$disk.path
        DiskNumber           = [uint32]$Partition.diskNumber
        DriveLetter          = $letterChar
        GptType              = $gpt
        Guid                 = Get-WinSimField $Partition 'guid'
        IsActive             = [bool](Get-WinSimField $Partition 'isActive' $false)
        IsBoot               = ([bool](Get-WinSimField $disk 'isBoot' $false) -and $letterChar -eq [char]'C')
        IsDAX                = $false
        IsHidden             = [bool](Get-WinSimField $Partition 'isHidden' $false)
        IsOffline            = ([bool](Get-WinSimField $Partition 'isOffline' $false) -or $diskOffline)
        IsReadOnly           = ([bool](Get-WinSimField $Partition 'isReadOnly' $false) -or [bool](Get-WinSimField $disk 'isReadOnly' $false))
        IsShadowCopy         = $false
        IsSystem             = ($type -eq 'System')
        MbrType              = if ($null -eq $mbr) { $null } else { [uint16]$mbr }
        NoDefaultDriveLetter = ($null -ne $gpt)
        Offset               = $offset
        PartitionNumber      = [uint32]$Partition.partitionNumber
        Size                 = [uint64]$Partition.size
        TransitionState      = [uint16]1
        PSComputerName       = $null
    })
    return (New-WinSimCimObject 'MSFT_Partition' $shown $raw)
}

function Get-WinSimSizeRemaining($Volume) {
    if ([string](Get-WinSimField $Volume 'fileSystem' '') -eq '') { return [uint64]0 }
    $used = [double](Get-WinSimField $Volume 'baseUsed' 0) + [double](Get-WinSimUsedBytes $Volume.guid)
    $left = [double]$Volume.size - $used
    if ($left -lt 0) { return [uint64]0 }
    return [uint64]$left
}

function New-WinSimVolumeObject($State, $Volume) {
    $partition = Get-WinSimPartitionOfVolume $State $Volume.guid
    $letter = $null
    if ($null -ne $partition) {
        $l = Get-WinSimField $partition 'driveLetter'
        if ($null -ne $l -and [string]$l -ne '') { $letter = [char]([string]$l).ToUpperInvariant() }
    }
    $fs = [string](Get-WinSimField $Volume 'fileSystem' '')
    $fsType = $script:WinSimFileSystemTypes[$fs]
    if ($null -eq $fsType) { $fsType = 0 }
    $path = "\\?\Volume{$($Volume.guid)}\"
    $raw = [ordered]@{
        OperationalStatus = [uint16[]]@(2)
        HealthStatus      = [uint16]0
        DriveType         = [uint32]3
        FileSystemType    = [uint16]$fsType
        DedupMode         = [uint32]4
    }
    $shown = [ordered]@{
        OperationalStatus = 'OK'
        HealthStatus      = 'Healthy'
        DriveType         = 'Fixed'
        FileSystemType    = Get-WinSimShown $script:WinSimFileSystemTypeNames $fsType
        DedupMode         = 'NotAvailable'
    }
    Add-WinSimCimProperties $shown $raw ([ordered]@{
        ObjectId             = "{1}\\WINSIM\root/Microsoft/Windows/Storage/Providers_v2\WSP_Volume.ObjectId=`"$($script:WinSimHostId):VO:$path`""
        PassThroughClass     = $null
        PassThroughIds       = $null
        PassThroughNamespace = $null
        PassThroughServer    = $null
        UniqueId             = $path
        AllocationUnitSize   = [uint32](Get-WinSimField $Volume 'allocationUnitSize' 0)
        DriveLetter          = $letter
        FileSystem           = $fs
        FileSystemLabel      = [string](Get-WinSimField $Volume 'label' '')
        Path                 = $path
        Size                 = [uint64]$Volume.size
        SizeRemaining        = Get-WinSimSizeRemaining $Volume
        PSComputerName       = $null
    })
    return (New-WinSimCimObject 'MSFT_Volume' $shown $raw)
}
