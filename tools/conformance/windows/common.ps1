# Helpers dot-sourced by setup.ps1, grow-disk.ps1 and teardown.ps1. Windows PowerShell 5.1 syntax.

# Root and Tag end up in diskpart scripts and object names: allow only plain characters.
function Assert-ConformanceNames([string]$Root, [string]$Tag) {
    if ($Root -notmatch '^[A-Za-z]:\\[A-Za-z0-9_.\\-]+$') { throw ('Root must be a plain absolute folder path, got: ' + $Root) }
    if ($Tag -notmatch '^[a-z0-9]{0,8}$') { throw 'Tag must be at most 8 lower-case letters or digits.' }
}

# Runs diskpart with a script file (diskpart reads commands only from a file or the console).
# https://learn.microsoft.com/windows-server/administration/windows-commands/diskpart
function Invoke-ConformanceDiskpart([string]$Root, [string[]]$Lines) {
    $scriptFile = Join-Path $Root ('diskpart-' + [guid]::NewGuid().ToString('n') + '.txt')
    Set-Content -LiteralPath $scriptFile -Value $Lines -Encoding Ascii
    try {
        $output = & diskpart.exe /s $scriptFile
        if ($LASTEXITCODE -ne 0) { throw ('diskpart failed with exit code ' + $LASTEXITCODE + ': ' + ($output -join ' ')) }
    } finally {
        Remove-Item -LiteralPath $scriptFile -Force -ErrorAction SilentlyContinue
    }
}

# The iSCSI Target Server with loopback logins allowed (the registry value upstream's integration
# tests set; written as a REG_DWORD through .NET, since Set-ItemProperty's -Type is a provider
# parameter the script check cannot hold to a table), WinTarget restarted to read it, and the
# initiator service running (Manual and stopped on Windows Server). Says what was there before,
# so teardown undoes only what this added. Called by provision.ps1 (the workflow) and setup.ps1.
function Initialize-ConformanceIscsi {
    $featureWasInstalled = [bool](Get-WindowsFeature -Name 'FS-iSCSITarget-Server').Installed
    if (-not $featureWasInstalled) {
        $result = Install-WindowsFeature -Name 'FS-iSCSITarget-Server'
        if (-not $result.Success) { throw ('Install-WindowsFeature FS-iSCSITarget-Server failed: ' + [string]$result.ExitCode) }
    }
    [Microsoft.Win32.Registry]::SetValue('HKEY_LOCAL_MACHINE\SOFTWARE\Microsoft\iSCSI Target', 'AllowLoopBack', 1, [Microsoft.Win32.RegistryValueKind]::DWord)
    Restart-Service -Name 'WinTarget' -Force
    $initiatorWasRunning = (Get-Service -Name 'MSiSCSI').Status -eq 'Running'
    if (-not $initiatorWasRunning) { Start-Service -Name 'MSiSCSI' }
    [pscustomobject]@{ featureWasInstalled = $featureWasInstalled; initiatorWasRunning = $initiatorWasRunning }
}

# The number of the disk behind an attached image file. Right after Mount-DiskImage the image can
# report no Number yet, and [int]$null is 0, the OS disk: wait (bounded) for the disk, and refuse
# any disk that is not file-backed. BusType is read raw (15 = File Backed Virtual, MSFT_Disk);
# the shown name is localised.
function Wait-ConformanceImageDisk([string]$ImagePath) {
    for ($attempt = 1; $attempt -le 60; $attempt++) {
        $image = Get-DiskImage -ImagePath $ImagePath
        # Get-Disk may not list the disk yet either: not found is another retry, not a failure.
        $disk = $null
        if ($image.Attached -and $null -ne $image.Number) { $disk = Get-Disk -Number $image.Number -ErrorAction SilentlyContinue }
        if ($null -ne $disk) {
            $busType = $disk.CimInstanceProperties['BusType'].Value
            if ([int]$busType -ne 15) { throw ('Disk ' + $image.Number + ' of ' + $ImagePath + ' has BusType ' + $busType + ', not 15 (File Backed Virtual): refusing to touch it.') }
            return [int]$image.Number
        }
        Start-Sleep -Milliseconds 500
    }
    throw ('The disk of ' + $ImagePath + ' did not appear within 60 attempts.')
}

# Whether a service exists and runs. The iSCSI initiator's CIM classes need MSiSCSI, the iSCSI
# Target cmdlets need WinTarget; a teardown step that needs a stopped service has nothing to undo.
function Test-ConformanceServiceRunning([string]$Name) {
    $service = Get-Service -Name $Name -ErrorAction SilentlyContinue
    return ($null -ne $service -and $service.Status -eq 'Running')
}

# The hosts file (%SystemRoot%\System32\drivers\etc\hosts), read by the DNS client on change.
function Get-ConformanceHostsFile {
    return (Join-Path ([System.Environment]::GetFolderPath('System')) 'drivers\etc\hosts')
}

# Whether a hosts-file line maps a name like Pattern (csiconf*): "<address> <name> [# comment]".
function Test-ConformanceHostsEntry([string]$Line, [string]$Pattern) {
    $fields = @($Line.Trim() -split '\s+')
    return ($fields.Count -ge 2 -and -not $fields[0].StartsWith('#') -and $fields[1] -like $Pattern)
}

# The IPv4 default route Windows uses and its interface's IPv4 address. Read from MSFT_NetRoute,
# MSFT_NetIPInterface and MSFT_NetIPAddress (root/StandardCimv2), the classes Get-NetRoute,
# Get-NetIPInterface and Get-NetIPAddress wrap; lowest route metric plus interface metric wins,
# as Windows picks it. AddressFamily is read raw (2 = IPv4).
function Get-ConformanceDefaultRoute {
    $ipv4Metric = @{}
    Get-CimInstance -Namespace 'root/StandardCimv2' -ClassName 'MSFT_NetIPInterface' | Where-Object { $_.CimInstanceProperties['AddressFamily'].Value -eq 2 } | ForEach-Object {
        $ipv4Metric[[int]$_.InterfaceIndex] = [int]$_.InterfaceMetric
    }
    $route = Get-CimInstance -Namespace 'root/StandardCimv2' -ClassName 'MSFT_NetRoute' |
        Where-Object { $_.DestinationPrefix -eq '0.0.0.0/0' -and $ipv4Metric.ContainsKey([int]$_.InterfaceIndex) } |
        Sort-Object -Property @{ Expression = { [int]$_.RouteMetric + $ipv4Metric[[int]$_.InterfaceIndex] } } |
        Select-Object -First 1
    if ($null -eq $route) { throw 'This machine has no IPv4 default route.' }
    $address = Get-CimInstance -Namespace 'root/StandardCimv2' -ClassName 'MSFT_NetIPAddress' |
        Where-Object { [int]$_.InterfaceIndex -eq [int]$route.InterfaceIndex -and [string]$_.IPAddress -match '^\d+\.\d+\.\d+\.\d+$' -and -not ([string]$_.IPAddress).StartsWith('169.254.') } |
        Select-Object -First 1
    if ($null -eq $address) { throw ('The default-route interface ' + $route.InterfaceAlias + ' has no IPv4 address.') }
    [pscustomobject]@{
        address = [string]$address.IPAddress
        interfaceAlias = [string]$route.InterfaceAlias
        metric = [int]$route.RouteMetric + $ipv4Metric[[int]$route.InterfaceIndex]
    }
}

# Maps Name to Address in a hosts file, replacing an earlier line for Name.
function Set-ConformanceHostsEntry([string]$HostsFile, [string]$Name, [string]$Address) {
    $lines = @(Get-Content -LiteralPath $HostsFile | Where-Object { -not (Test-ConformanceHostsEntry -Line $_ -Pattern $Name) })
    Set-Content -LiteralPath $HostsFile -Value ($lines + @($Address + ' ' + $Name)) -Encoding Ascii
}
