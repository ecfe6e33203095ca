# Access paths are Linux folders on the simulator, stored with a trailing '/' (Windows stores '\'),
# where the folder really is: the links on the way to it followed (a junction swapped in for a
# parent is where the reparse point lands), a volume mount point kept as the folder it is. Windows
# finds mounted folders where they are (FindFirstVolumeMountPoint enumerates the mount points a
# volume holds, and "you can rename, remove, move ... mounted folders"), so an access path names
# the folder's own path, not the name a caller gave. Not yet seen on Windows: the Windows
# workflow's mount test reads it back.
function ConvertTo-WinSimMountPath([string]$Path) {
    $full = [System.IO.Path]::GetFullPath($Path).TrimEnd('/')
    $parent = [System.IO.Path]::GetDirectoryName($full)
    if ([string]::IsNullOrEmpty($parent)) { return $full + '/' }
    $leaf = [System.IO.Path]::GetFileName($full)
    return ([System.IO.Path]::Combine((Resolve-WinSimFolderPath $parent), $leaf)).TrimEnd('/') + '/'
}

# The folder's path with every link on the way followed but a volume mount point (a junction to a
# volume or a device, Get-WinSimLinkShape), as Windows resolves a path to the folder it opens.
function Resolve-WinSimFolderPath([string]$FullPath) {
    $pending = [System.Collections.Generic.List[string]]::new()
    foreach ($part in $FullPath.Split([char]'/', [System.StringSplitOptions]::RemoveEmptyEntries)) { $pending.Add($part) }
    $current = '/'
    $hops = 0
    while ($pending.Count -gt 0) {
        $part = $pending[0]
        $pending.RemoveAt(0)
        $next = [System.IO.Path]::Combine($current, $part)
        $info = [System.IO.FileInfo]::new($next)
        $target = $info.LinkTarget
        $shape = $null
        if ($null -ne $target) { $shape = Get-WinSimLinkShape $info }
        if ($null -eq $target -or $shape.LinkType -eq 'Junction') {
            $current = $next
            continue
        }
        $hops = $hops + 1
        # Windows gives up after 63 reparse points; a loop is left as the name given.
        if ($hops -gt 63) { return $FullPath }
        $absolute = $target
        if (-not [System.IO.Path]::IsPathRooted($absolute)) { $absolute = [System.IO.Path]::Combine($current, $target) }
        $parts = [System.IO.Path]::GetFullPath($absolute).Split([char]'/', [System.StringSplitOptions]::RemoveEmptyEntries)
        $pending.InsertRange(0, [string[]]$parts)
        $current = '/'
    }
    return $current
}

function Test-WinSimDriveRoot([string]$Path) {
    return $Path -match '^[A-Za-z]:\\?$'
}

function Test-WinSimAccessPathTaken($State, [string]$MountPath) {
    foreach ($p in $State.partitions) {
        foreach ($a in @(Get-WinSimField $p 'accessPaths' @())) { if ([string]$a -eq $MountPath) { return $true } }
    }
    return $false
}

# Mounting replaces an existing empty folder with a link to the volume's backing folder.
function Add-WinSimAccessPath($State, $Partition, [string]$AccessPath, [bool]$AssignLetter) {
    $hasPath = -not [string]::IsNullOrEmpty($AccessPath)
    if ($hasPath -eq $AssignLetter) { return (New-WinSimStorageError 5 'MSFT_Partition') }
    if ([bool](Get-WinSimField $Partition 'isHidden' $false)) { return (New-WinSimStorageError 42004 'MSFT_Partition') }
    $guid = [string](Get-WinSimField $Partition 'volume' '')
    if ($guid -eq '') { return (New-WinSimStorageError 42007 'MSFT_Partition') }
    if ($AssignLetter -or (Test-WinSimDriveRoot $AccessPath)) {
        $letter = if ($AssignLetter) { Get-WinSimFreeDriveLetter $State } else { $AccessPath.Substring(0, 1).ToUpperInvariant() }
        if ($null -eq $letter -or (Test-WinSimDriveLetterTaken $State $letter)) { return (New-WinSimStorageError 42002 'MSFT_Partition') }
        if ([string](Get-WinSimField $Partition 'driveLetter' '') -ne '') { return (New-WinSimStorageError 42002 'MSFT_Partition') }
        $Partition.driveLetter = $letter
        return $null
    }
    $mount = ConvertTo-WinSimMountPath $AccessPath
    $folder = $mount.TrimEnd('/')
    if (Test-WinSimAccessPathTaken $State $mount) { return (New-WinSimStorageError 42002 'MSFT_Partition') }
    $info = [System.IO.DirectoryInfo]::new($folder)
    if (-not $info.Exists) { return (New-WinSimStorageError 42007 'MSFT_Partition') }
    if ($null -ne $info.LinkTarget) { return (New-WinSimStorageError 42002 'MSFT_Partition') }
    if (@($info.EnumerateFileSystemInfos()).Count -gt 0) { return (New-WinSimStorageError 42007 'MSFT_Partition') }
    $backing = Get-WinSimVolumeRoot $guid
    [void][System.IO.Directory]::CreateDirectory($backing)
    $info.Delete()
    [void][System.IO.Directory]::CreateSymbolicLink($folder, $backing)
    $Partition.accessPaths = @(@(Get-WinSimField $Partition 'accessPaths' @()) + $mount)
    return $null
}

# Unmounting leaves an empty folder behind, as Windows leaves the mount folder.
function Remove-WinSimAccessPath($State, $Partition, [string]$AccessPath) {
    if ([string]::IsNullOrEmpty($AccessPath)) { return (New-WinSimStorageError 5 'MSFT_Partition') }
    if ($AccessPath -match '(?i)^\\\\\?\\Volume\{') { return (New-WinSimStorageError 42005 'MSFT_Partition') }
    if (Test-WinSimDriveRoot $AccessPath) {
        $letter = $AccessPath.Substring(0, 1).ToUpperInvariant()
        if ([string](Get-WinSimField $Partition 'driveLetter' '') -ne $letter) { return (New-WinSimStorageError 42007 'MSFT_Partition') }
        $disk = Get-WinSimDisk $State $Partition.diskNumber
        if ([bool](Get-WinSimField $disk 'isBoot' $false) -and $letter -eq 'C') { return (New-WinSimStorageError 42006 'MSFT_Partition') }
        $Partition.driveLetter = $null
        return $null
    }
    $mount = ConvertTo-WinSimMountPath $AccessPath
    $paths = @(Get-WinSimField $Partition 'accessPaths' @())
    if ($paths -notcontains $mount) { return (New-WinSimStorageError 42007 'MSFT_Partition') }
    $folder = $mount.TrimEnd('/')
    $info = [System.IO.DirectoryInfo]::new($folder)
    if ($info.Exists -and $null -ne $info.LinkTarget) {
        $info.Delete()
        [void][System.IO.Directory]::CreateDirectory($folder)
    }
    $Partition.accessPaths = @($paths | Where-Object { $_ -ne $mount })
    return $null
}
