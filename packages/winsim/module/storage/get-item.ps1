# Why a proxy: the volume scripts resolve mount points with Get-Item, and a simulator that cannot
# log or fault that step cannot prove what those scripts do when it fails. The item comes from the
# real cmdlet; its LinkType and Target are then rewritten to what Windows reports for the same
# item (docs/design/winsim.md, "Why Get-Item is proxied"), Windows PowerShell 5.1 unless the
# scenario says "powershell": "7". The logged outcome says whether the simulator let the call
# through, not whether the path existed.
function Get-Item {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory, Position = 0, ValueFromPipeline, ValueFromPipelineByPropertyName)]
        [string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory, ValueFromPipelineByPropertyName)]
        [Alias('PSPath', 'LP')]
        [string[]]$LiteralPath,
        [string]$Filter,
        [string[]]$Include,
        [string[]]$Exclude,
        [switch]$Force,
        [Parameter(ValueFromPipelineByPropertyName)]
        [pscredential]
        [System.Management.Automation.CredentialAttribute()]
        $Credential,
        # A FileSystem dynamic parameter of the real cmdlet, declared statically here.
        [string[]]$Stream
    )
    process {
        # Not named $bound: inside the action that name is Invoke-WinSimCommand's logged copy.
        $itemBound = @{} + $PSBoundParameters
        $gate = @{ open = $false }
        Invoke-WinSimCommand $PSCmdlet $itemBound ([ordered]@{}) { param($ctx) $gate.open = $true } -Stateless
        if (-not $gate.open) { return }
        $edition = Get-WinSimPowerShellEdition
        # Outside the simulator, so the real cmdlet writes its own errors: an error written from a
        # function would carry the function's name in its id (PathNotFound,Get-Item), not the cmdlet's.
        Microsoft.PowerShell.Management\Get-Item @itemBound | ForEach-Object { ConvertTo-WinSimWindowsItem $_ $edition }
    }
}

# "5.1" (the library's default executable, powershell.exe) unless the scenario chose "7".
function Get-WinSimPowerShellEdition {
    $state = Read-WinSimJson 'state.json' $null
    if ($null -ne $state -and [string](Get-WinSimField $state 'powershell' '') -eq '7') { return '7' }
    return '5.1'
}

# The volume backing folder ($dir/volumes/Volume{guid}) a Linux path lies in, or $null.
function Get-WinSimVolumeRootOf([string]$FullPath) {
    $volumes = [System.IO.Path]::GetFullPath((Join-Path (Get-WinSimDir) 'volumes')).TrimEnd('/')
    $m = [regex]::Match($FullPath, '^' + [regex]::Escape($volumes) + '/(Volume\{[0-9A-Fa-f-]+\})(/|$)')
    if ($m.Success) { return "$volumes/$($m.Groups[1].Value)" }
    return $null
}

# The path with every link on the way followed (what the file system holds the item under).
function Resolve-WinSimRealPath([string]$FullPath) {
    $current = '/'
    foreach ($part in $FullPath.Split('/', [System.StringSplitOptions]::RemoveEmptyEntries)) {
        $next = [System.IO.Path]::Combine($current, $part)
        $info = [System.IO.FileInfo]::new($next)
        if ($null -ne $info.LinkTarget) {
            $final = $info.ResolveLinkTarget($true)
            if ($null -ne $final) { $next = $final.FullName }
        }
        $current = $next
    }
    return $current
}

# A mount point (a link to a volume's backing folder) is a Junction to Volume{guid}\ on Windows:
# IO_REPARSE_TAG_MOUNT_POINT, substitute name \??\Volume{guid}\ with the \??\ stripped. A link
# whose text ends in '/' or names a folder below the volume's root is a symbolic link to the
# volume's GUID path (mklink /D x \\?\Volume{guid}\), and a link into the devices folder a
# junction to \??\GLOBALROOT\Device\HarddiskVolumeN\ (fs-host.ts in the package says the same).
function Get-WinSimLinkShape([System.IO.FileSystemInfo]$Info) {
    $target = $Info.LinkTarget
    if ($null -eq $target) { return $null }
    $absolute = $target
    if (-not [System.IO.Path]::IsPathRooted($absolute)) { $absolute = [System.IO.Path]::Combine([System.IO.Path]::GetDirectoryName($Info.FullName), $target) }
    $absolute = [System.IO.Path]::GetFullPath($absolute).TrimEnd('/')
    $devices = [System.IO.Path]::GetFullPath((Join-Path (Get-WinSimDir) 'devices')).TrimEnd('/')
    if ($absolute.StartsWith($devices + '/')) {
        return @{ LinkType = 'Junction'; Target = ('GLOBALROOT\Device\' + $absolute.Substring($devices.Length + 1).Split('/')[0] + '\') }
    }
    $root = Get-WinSimVolumeRootOf $absolute
    if ($null -ne $root -and $root -eq $absolute -and -not $target.EndsWith('/')) {
        return @{ LinkType = 'Junction'; Target = ([System.IO.Path]::GetFileName($root) + '\') }
    }
    if ($null -ne $root) {
        $below = $absolute.Substring($root.Length).TrimStart('/').Replace('/', '\')
        return @{ LinkType = 'SymbolicLink'; Target = ('\\?\' + [System.IO.Path]::GetFileName($root) + '\' + $below) }
    }
    return @{ LinkType = 'SymbolicLink'; Target = $target }
}

# 5.1 on a plain item (no reparse point): the hard-link names FindFirstFileNameW/FindNextFileNameW
# give, each relative to the root of the volume HOLDING the item, prefixed with
# Path.GetPathRoot(item path); the item's own path is left out (OrdinalIgnoreCase). For an item on
# a folder-mounted volume the prefix is the root of the wrong volume, so the name is bogus.
function Get-WinSimHardLinkTargets([System.IO.FileSystemInfo]$Info) {
    $full = $Info.FullName.TrimEnd('/')
    $real = Resolve-WinSimRealPath $full
    $root = Get-WinSimVolumeRootOf $real
    $name = $real
    if ($null -ne $root) { $name = $real.Substring($root.Length) }
    if ($name -eq '') { $name = '/' }
    # GetPathRoot: the Volume{guid} root when the item was reached through it, else the drive root.
    $pathRoot = '/'
    $own = Get-WinSimVolumeRootOf $full
    if ($null -ne $own) { $pathRoot = $own }
    $candidate = [System.IO.Path]::GetFullPath($pathRoot.TrimEnd('/') + '/' + $name.TrimStart('/'))
    # The comma keeps the array an array: a function's output would unroll it.
    if ([string]::Equals($candidate.TrimEnd('/'), $full, [System.StringComparison]::OrdinalIgnoreCase)) { return , ([string[]]@()) }
    return , ([string[]]@($candidate))
}

# The item as Windows reports it: a new wrapper whose type names no longer pull in the Linux
# FileSystemInfo type data, so LinkType and Target can be set (provider note properties stay).
function ConvertTo-WinSimWindowsItem($Item, [string]$Edition) {
    $info = $Item.PSObject.BaseObject
    if ($info -isnot [System.IO.FileSystemInfo]) { return $Item }
    $link = Get-WinSimLinkShape $info
    $linkType = $Item.LinkType
    $target = $null
    if ($null -ne $link) {
        $linkType = $link.LinkType
        $target = $link.Target
        # 5.1's Target is IEnumerable<string> (string[]), 7's a string.
        if ($Edition -eq '5.1') { $target = [string[]]@($target) }
    } elseif ($Edition -eq '5.1') {
        $target = Get-WinSimHardLinkTargets $info
    }
    $wrapped = [psobject]::new($info)
    $names = @($wrapped.PSObject.TypeNames)
    $wrapped.PSObject.TypeNames.Clear()
    foreach ($n in $names) { $wrapped.PSObject.TypeNames.Add("CsiProxy.WinSim.WindowsItem#$n") }
    $wrapped | Add-Member -NotePropertyName LinkType -NotePropertyValue $linkType -Force
    $wrapped | Add-Member -NotePropertyName Target -NotePropertyValue $target -Force
    return $wrapped
}
