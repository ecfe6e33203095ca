# Get-Service output: a ServiceController stand-in carrying the real type name and type-data aliases.
function New-WinSimServiceObject($Service, [double]$Now) {
    $base = [CsiProxy.WinSim.SimServiceController]::new(
        [string]$Service.name, [string]$Service.displayName, (Get-WinSimServiceStatus $Service $Now),
        [int]$Service.startType, [int]$Service.serviceType, [bool]$Service.canStop, [bool]$Service.canPauseAndContinue)
    $object = [psobject]::new($base)
    $object.PSObject.TypeNames.Insert(0, 'System.ServiceProcess.ServiceController')
    # PowerShell's own type data for ServiceController may already alias these.
    if ($null -eq $object.PSObject.Properties['Name']) { $object.PSObject.Properties.Add([psaliasproperty]::new('Name', 'ServiceName')) }
    if ($null -eq $object.PSObject.Properties['RequiredServices']) { $object.PSObject.Properties.Add([psaliasproperty]::new('RequiredServices', 'ServicesDependedOn')) }
    return $object
}

# A root/cimv2 instance (Win32_BIOS, Win32_Service): raw values only, no Storage type data.
function New-WinSimCimV2Object([string]$Class, [string[]]$Bases, [System.Collections.Specialized.OrderedDictionary]$Properties) {
    $base = [CsiProxy.WinSim.SimCimInstance]::new($Class)
    foreach ($key in $Properties.Keys) { $base.Set($key, $Properties[$key]) }
    $object = [psobject]::new($base)
    foreach ($key in $Properties.Keys) { $object.PSObject.Properties.Add([psnoteproperty]::new($key, $Properties[$key])) }
    $names = $object.PSObject.TypeNames
    $names.Clear()
    $prefix = 'Microsoft.Management.Infrastructure.CimInstance#'
    foreach ($c in @($Class) + $Bases) { $names.Add("${prefix}root/cimv2/$c") }
    foreach ($c in @($Class) + $Bases) { $names.Add("$prefix$c") }
    $names.Add('Microsoft.Management.Infrastructure.CimInstance')
    $names.Add('System.Object')
    return $object
}

function New-WinSimBiosObject($Bios) {
    $get = { param($n, $d) Get-WinSimField $Bios $n $d }
    $version = [string](& $get 'version' 'VRTUAL - 1')
    $smbios = [string](& $get 'smbiosBiosVersion' '1.0')
    $release = & $get 'releaseDate' $null
    return (New-WinSimCimV2Object 'Win32_BIOS' @('CIM_BIOSElement', 'CIM_SoftwareElement', 'CIM_LogicalElement', 'CIM_ManagedSystemElement') ([ordered]@{
        BiosCharacteristics   = [uint16[]]@(3, 9, 15, 16, 19, 26, 27, 30, 32, 33, 39, 40, 42, 43)
        BIOSVersion           = [string[]]@($version, $smbios)
        Caption               = $smbios
        Description           = $smbios
        Manufacturer          = [string](& $get 'manufacturer' '')
        Name                  = [string](& $get 'name' $smbios)
        PrimaryBIOS           = $true
        ReleaseDate           = if ($null -eq $release) { $null } else { [DateTime]::Parse([string]$release, [Globalization.CultureInfo]::InvariantCulture, [Globalization.DateTimeStyles]::AdjustToUniversal) }
        SerialNumber          = Get-WinSimField $Bios 'serialNumber'
        SMBIOSBIOSVersion     = $smbios
        SMBIOSMajorVersion    = [uint16]3
        SMBIOSMinorVersion    = [uint16]1
        SMBIOSPresent         = $true
        SoftwareElementID     = $smbios
        SoftwareElementState  = [uint16]3
        Status                = 'OK'
        TargetOperatingSystem = [uint16]0
        Version               = $version
        PSComputerName        = $null
    }))
}

$script:WinSimServiceStates = @{ 1 = 'Stopped'; 2 = 'Start Pending'; 3 = 'Stop Pending'; 4 = 'Running'; 5 = 'Continue Pending'; 6 = 'Pause Pending'; 7 = 'Paused' }
$script:WinSimStartModes = @{ 0 = 'Boot'; 1 = 'System'; 2 = 'Auto'; 3 = 'Manual'; 4 = 'Disabled' }

# Win32_Service reports states and start modes as strings (windows-cmdlets.md §7.10).
function New-WinSimWin32ServiceObject($Service, [double]$Now) {
    $status = Get-WinSimServiceStatus $Service $Now
    $type = if ([int]$Service.serviceType -band 32) { 'Share Process' } else { 'Own Process' }
    return (New-WinSimCimV2Object 'Win32_Service' @('Win32_BaseService', 'CIM_Service', 'CIM_LogicalElement', 'CIM_ManagedSystemElement') ([ordered]@{
        Name             = [string]$Service.name
        Caption          = [string]$Service.displayName
        DisplayName      = [string]$Service.displayName
        State            = $script:WinSimServiceStates[$status]
        StartMode        = $script:WinSimStartModes[[int]$Service.startType]
        Started          = ($status -eq 4)
        AcceptStop       = ($status -eq 4 -and [bool]$Service.canStop)
        AcceptPause      = [bool]$Service.canPauseAndContinue
        ServiceType      = $type
        Status           = 'OK'
        DelayedAutoStart = $false
        ProcessId        = [uint32]$(if ($status -eq 4) { 1000 + [Math]::Abs(([string]$Service.name).GetHashCode() % 8000) } else { 0 })
        PathName         = 'C:\Windows\system32\svchost.exe -k netsvcs -p'
        StartName        = 'LocalSystem'
        PSComputerName   = $null
    }))
}
