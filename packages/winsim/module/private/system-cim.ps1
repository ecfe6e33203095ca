# Get-CimInstance on the simulated host: root/cimv2 Win32_BIOS and Win32_Service, root/wmi
# MSiSCSIInitiator_SessionClass (iscsi-wmi.ps1), a small WQL subset (SELECT ... FROM <class>
# [WHERE a='x' AND b="y"]), -Filter with the same equality clauses, -Property.
function New-WinSimCimError([string]$Message, [string]$Native, [uint32]$Status, [string]$HResult, [string]$Category, [string]$Target) {
    $exception = [CsiProxy.WinSim.CimException]::new($Message, $Native, $Status, "HRESULT $HResult")
    $record = [System.Management.Automation.ErrorRecord]::new($exception, "HRESULT $HResult", [System.Management.Automation.ErrorCategory]$Category, $Target)
    return $record
}

function Resolve-WinSimCimRequest([System.Collections.IDictionary]$Bound) {
    $namespace = if ($Bound.ContainsKey('Namespace')) { ([string]$Bound['Namespace']).Replace('\', '/').Trim('/') } else { 'root/cimv2' }
    if (@('root/cimv2', 'root/wmi') -notcontains $namespace) { return (New-WinSimCimError 'Invalid namespace ' 'InvalidNamespace' 3 '0x8004100e' 'MetadataError' $namespace) }
    $class = $null
    $filter = if ($Bound.ContainsKey('Filter')) { [string]$Bound['Filter'] } else { '' }
    $properties = if ($Bound.ContainsKey('Property')) { @($Bound['Property']) } else { @() }
    if ($Bound.ContainsKey('ClassName')) { $class = [string]$Bound['ClassName'] }
    elseif ($Bound.ContainsKey('Query')) {
        $m = [regex]::Match([string]$Bound['Query'], '^\s*select\s+(.+?)\s+from\s+(\w+)(?:\s+where\s+(.+?))?\s*$', 'IgnoreCase')
        if (-not $m.Success) { return (New-WinSimCimError 'Invalid query ' 'InvalidQuery' 15 '0x80041017' 'InvalidArgument' ([string]$Bound['Query'])) }
        $class = $m.Groups[2].Value
        if ($m.Groups[3].Success) { $filter = $m.Groups[3].Value }
        if ($m.Groups[1].Value.Trim() -ne '*') { $properties = @($m.Groups[1].Value -split '\s*,\s*') }
    } elseif ($Bound.ContainsKey('InputObject')) {
        $class = ([string]$Bound['InputObject'].PSObject.TypeNames[0]).Split('/')[-1]
        $key = if ($class -eq 'Win32_Service') { "Name='$($Bound['InputObject'].Name)'" } else { '' }
        $filter = $key
    } else {
        return (New-WinSimCimError 'The WS-Management service cannot process the request. ' 'NotSupported' 7 '0x80338000' 'NotImplemented' '')
    }
    return [pscustomobject]@{ Namespace = $namespace.ToLowerInvariant(); Class = $class; Filter = $filter; Properties = $properties }
}

function Get-WinSimCimInstances($System, $Request, [double]$Now, $State) {
    $Class = [string]$Request.Class
    if ($Request.Namespace -eq 'root/wmi') {
        if ($Class -eq 'MSiSCSIInitiator_SessionClass') { return (Get-WinSimIscsiWmiSessions $State) }
        return (New-WinSimCimError 'Invalid class ' 'InvalidClass' 5 '0x80041010' 'MetadataError' "root/wmi:$Class")
    }
    switch -Regex ($Class) {
        '^(Win32_BIOS|CIM_BIOSElement)$' {
            if ($null -eq $System.bios) { return , @() }
            return , @(New-WinSimBiosObject $System.bios)
        }
        '^(Win32_Service|Win32_BaseService)$' {
            return , @(foreach ($s in @($System.services | Sort-Object { [string]$_.name })) { New-WinSimWin32ServiceObject $s $Now })
        }
    }
    return (New-WinSimCimError 'Invalid class ' 'InvalidClass' 5 '0x80041010' 'MetadataError' "root/cimv2:$Class")
}

# Equality clauses joined by AND, compared case-insensitively as WQL does for strings.
function Select-WinSimCimByFilter([object[]]$Objects, [string]$Filter) {
    if ([string]::IsNullOrWhiteSpace($Filter)) { return , $Objects }
    $clauses = @()
    foreach ($part in [regex]::Split($Filter, '\s+and\s+', 'IgnoreCase')) {
        $m = [regex]::Match($part.Trim(), '^(\w+)\s*=\s*(?:''([^'']*)''|"([^"]*)"|(\d+)|(true|false))$', 'IgnoreCase')
        if (-not $m.Success) { return (New-WinSimCimError 'Invalid query ' 'InvalidQuery' 15 '0x80041017' 'InvalidArgument' $Filter) }
        $value = foreach ($g in 2..5) { if ($m.Groups[$g].Success) { $m.Groups[$g].Value } }
        $clauses += , @($m.Groups[1].Value, [string]@($value)[0])
    }
    return , @($Objects | Where-Object {
            $o = $_
            @($clauses | Where-Object { $p = $o.PSObject.Properties[$_[0]]; $null -eq $p -or -not [string]::Equals([string]$p.Value, $_[1], [StringComparison]::OrdinalIgnoreCase) }).Count -eq 0
        })
}

# -Property: the instance comes back with only those properties (and its keys) filled in.
function Select-WinSimCimProperties($Object, [string[]]$Properties) {
    $wanted = @($Properties | Where-Object { -not [string]::IsNullOrEmpty($_) })
    if ($wanted.Count -eq 0) { return $Object }
    $keys = @('Name', 'SoftwareElementID', 'SoftwareElementState', 'TargetOperatingSystem', 'Version')
    foreach ($p in @($Object.PSObject.Properties | Where-Object { $_ -is [psnoteproperty] })) {
        if ($wanted -contains $p.Name -or $keys -contains $p.Name -or $p.Name -eq 'PSComputerName') { continue }
        $p.Value = $null
        $Object.PSObject.BaseObject.Set($p.Name, $null)
    }
    return $Object
}
