# Shared query logic: each filter value that matches nothing is a not-found error, as CDXML reports it.
function Select-WinSimByValues($Ctx, $Items, [string]$Class, [string]$Property, $Values, [scriptblock]$Predicate, [switch]$Wildcards) {
    $found = [System.Collections.Generic.List[object]]::new()
    foreach ($value in @($Values)) {
        $hits = @($Items | Where-Object { & $Predicate $_ $value })
        if ($hits.Count -eq 0) {
            if (-not ($Wildcards -and [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters([string]$value))) {
                $Ctx.Items.Add((New-WinSimNotFound $Class $Property $value))
            }
        }
        foreach ($h in $hits) { if (-not $found.Contains($h)) { $found.Add($h) } }
    }
    return , $found.ToArray()
}

function Test-WinSimLike([string]$Actual, [string]$Pattern) {
    return [System.Management.Automation.WildcardPattern]::new($Pattern, 'IgnoreCase').IsMatch($Actual)
}

# Resolves the disk selectors shared by Get-Disk, Initialize-Disk, Set-Disk and New-Partition.
function Select-WinSimDisks($Ctx, [System.Collections.IDictionary]$Bound, [hashtable]$Names = @{}) {
    $state = $Ctx.State
    $disks = @($state.disks | Sort-Object { [uint32]$_.number })
    $numberName = if ($Names.ContainsKey('Number')) { $Names['Number'] } else { 'Number' }
    $idName = if ($Names.ContainsKey('UniqueId')) { $Names['UniqueId'] } else { 'UniqueId' }
    $pathName = if ($Names.ContainsKey('Path')) { $Names['Path'] } else { 'Path' }
    if ($Bound.ContainsKey('InputObject')) {
        $out = [System.Collections.Generic.List[object]]::new()
        foreach ($o in @($Bound['InputObject'])) {
            foreach ($d in (Select-WinSimByValues $Ctx $disks 'MSFT_Disk' 'ObjectId' @([uint32]$o.Number) { param($d, $v) [uint32]$d.number -eq $v })) { $out.Add($d) }
        }
        return , $out.ToArray()
    }
    if ($Bound.ContainsKey($numberName)) {
        return (Select-WinSimByValues $Ctx $disks 'MSFT_Disk' 'Number' @($Bound[$numberName] | ForEach-Object { [uint32]$_ }) { param($d, $v) [uint32]$d.number -eq $v })
    }
    if ($Bound.ContainsKey($idName)) {
        return (Select-WinSimByValues $Ctx $disks 'MSFT_Disk' 'UniqueId' @($Bound[$idName]) { param($d, $v) [string](Get-WinSimField $d 'uniqueId' '') -eq $v })
    }
    if ($Bound.ContainsKey($pathName)) {
        return (Select-WinSimByValues $Ctx $disks 'MSFT_Disk' 'Path' @($Bound[$pathName]) { param($d, $v) [string]::Equals([string]$d.path, $v, [StringComparison]::OrdinalIgnoreCase) })
    }
    $result = $disks
    if ($Bound.ContainsKey('FriendlyName')) {
        $result = Select-WinSimByValues $Ctx $result 'MSFT_Disk' 'FriendlyName' @($Bound['FriendlyName']) { param($d, $v) Test-WinSimLike ([string](Get-WinSimField $d 'friendlyName' '')) $v } -Wildcards
    }
    if ($Bound.ContainsKey('SerialNumber')) {
        $result = Select-WinSimByValues $Ctx $result 'MSFT_Disk' 'SerialNumber' @($Bound['SerialNumber']) { param($d, $v) Test-WinSimLike ([string](Get-WinSimField $d 'serialNumber' '')) $v } -Wildcards
    }
    if ($Bound.ContainsKey('Partition')) {
        $n = [uint32]$Bound['Partition'].DiskNumber
        $result = @($disks | Where-Object { [uint32]$_.number -eq $n })
    }
    return , @($result)
}

# Resolves the partition selectors shared by the partition and access-path cmdlets.
function Select-WinSimPartitions($Ctx, [System.Collections.IDictionary]$Bound) {
    $state = $Ctx.State
    $all = @($state.partitions | Sort-Object { [uint32]$_.diskNumber }, { [uint64]$_.offset })
    if ($Bound.ContainsKey('InputObject')) {
        $out = [System.Collections.Generic.List[object]]::new()
        foreach ($o in @($Bound['InputObject'])) {
            $hit = @($all | Where-Object { [uint32]$_.diskNumber -eq [uint32]$o.DiskNumber -and [uint64]$_.offset -eq [uint64]$o.Offset })
            if ($hit.Count -eq 0) { $Ctx.Items.Add((New-WinSimNotFound 'MSFT_Partition' 'ObjectId' ([string]$o.ObjectId))) }
            foreach ($h in $hit) { $out.Add($h) }
        }
        return , $out.ToArray()
    }
    if ($Bound.ContainsKey('Disk')) {
        $n = [uint32]$Bound['Disk'].Number
        return , @($all | Where-Object { [uint32]$_.diskNumber -eq $n })
    }
    if ($Bound.ContainsKey('Volume')) {
        $guid = ([string]$Bound['Volume'].UniqueId) -replace '^\\\\\?\\Volume\{', '' -replace '\}\\$', ''
        return , @($all | Where-Object { [string](Get-WinSimField $_ 'volume' '') -eq $guid })
    }
    $result = $all
    if ($Bound.ContainsKey('DiskNumber')) {
        $result = Select-WinSimByValues $Ctx $result 'MSFT_Partition' 'DiskNumber' @($Bound['DiskNumber'] | ForEach-Object { [uint32]$_ }) { param($p, $v) [uint32]$p.diskNumber -eq $v }
    }
    if ($Bound.ContainsKey('DiskId')) {
        $ids = @($Bound['DiskId'])
        $result = Select-WinSimByValues $Ctx $result 'MSFT_Partition' 'DiskId' $ids { param($p, $v) $d = Get-WinSimDisk $state $p.diskNumber; [string]::Equals([string]$d.path, [string]$v, [StringComparison]::OrdinalIgnoreCase) }
    }
    if ($Bound.ContainsKey('PartitionNumber') -and $result.Count -gt 0) {
        $result = Select-WinSimByValues $Ctx $result 'MSFT_Partition' 'PartitionNumber' @($Bound['PartitionNumber'] | ForEach-Object { [uint32]$_ }) { param($p, $v) [uint32]$p.partitionNumber -eq $v }
    }
    if ($Bound.ContainsKey('Offset') -and $result.Count -gt 0) {
        $result = Select-WinSimByValues $Ctx $result 'MSFT_Partition' 'Offset' @($Bound['Offset'] | ForEach-Object { [uint64]$_ }) { param($p, $v) [uint64]$p.offset -eq $v }
    }
    if ($Bound.ContainsKey('DriveLetter')) {
        $result = Select-WinSimByValues $Ctx $result 'MSFT_Partition' 'DriveLetter' @($Bound['DriveLetter'] | ForEach-Object { [char]$_ }) { param($p, $v) [string](Get-WinSimField $p 'driveLetter' '') -eq ([string]$v).ToUpperInvariant() }
    }
    if ($Bound.ContainsKey('UniqueId')) {
        $result = Select-WinSimByValues $Ctx $result 'MSFT_Partition' 'UniqueId' @($Bound['UniqueId']) { param($p, $v) (New-WinSimPartitionObject $state $p).UniqueId -eq $v }
    }
    return , @($result)
}

function Get-WinSimVolumeGuid([string]$UniqueId) {
    if ($UniqueId -match '(?i)^\\\\\?\\Volume\{([0-9a-f-]+)\}\\?$') { return $Matches[1].ToLowerInvariant() }
    return $null
}

# Resolves the volume selectors shared by Get-Volume, Format-Volume and Write-VolumeCache.
function Select-WinSimVolumes($Ctx, [System.Collections.IDictionary]$Bound) {
    $state = $Ctx.State
    # Volumes on offline disks are not mounted, so Windows does not list them.
    $all = @($state.volumes | Where-Object {
            $p = Get-WinSimPartitionOfVolume $state $_.guid
            $null -eq $p -or -not [bool](Get-WinSimField (Get-WinSimDisk $state $p.diskNumber) 'isOffline' $false)
        })
    $letterOf = { param($v) $p = Get-WinSimPartitionOfVolume $state $v.guid; if ($null -eq $p) { '' } else { [string](Get-WinSimField $p 'driveLetter' '') } }
    if ($Bound.ContainsKey('InputObject')) {
        $out = [System.Collections.Generic.List[object]]::new()
        foreach ($o in @($Bound['InputObject'])) {
            foreach ($h in (Select-WinSimByValues $Ctx $all 'MSFT_Volume' 'ObjectId' @([string]$o.ObjectId) { param($v, $x) "\\?\Volume{$($v.guid)}\" -eq [string]$o.UniqueId })) { $out.Add($h) }
        }
        return , $out.ToArray()
    }
    if ($Bound.ContainsKey('Partition')) {
        $p = $Bound['Partition']
        $part = @($state.partitions | Where-Object { [uint32]$_.diskNumber -eq [uint32]$p.DiskNumber -and [uint64]$_.offset -eq [uint64]$p.Offset })
        return , @($all | Where-Object { $v = $_; @($part | Where-Object { [string](Get-WinSimField $_ 'volume' '') -eq $v.guid }).Count -gt 0 })
    }
    if ($Bound.ContainsKey('DriveLetter')) {
        return (Select-WinSimByValues $Ctx $all 'MSFT_Volume' 'DriveLetter' @($Bound['DriveLetter'] | ForEach-Object { [char]$_ }) { param($v, $x) (& $letterOf $v) -eq ([string]$x).ToUpperInvariant() })
    }
    if ($Bound.ContainsKey('UniqueId')) {
        return (Select-WinSimByValues $Ctx $all 'MSFT_Volume' 'UniqueId' @($Bound['UniqueId']) { param($v, $x) (Get-WinSimVolumeGuid $x) -eq $v.guid })
    }
    if ($Bound.ContainsKey('Path')) {
        return (Select-WinSimByValues $Ctx $all 'MSFT_Volume' 'Path' @($Bound['Path']) { param($v, $x) (Get-WinSimVolumeGuid $x) -eq $v.guid })
    }
    if ($Bound.ContainsKey('ObjectId')) {
        return (Select-WinSimByValues $Ctx $all 'MSFT_Volume' 'ObjectId' @($Bound['ObjectId']) { param($v, $x) (New-WinSimVolumeObject $state $v).ObjectId -eq $x })
    }
    if ($Bound.ContainsKey('FileSystemLabel')) {
        return (Select-WinSimByValues $Ctx $all 'MSFT_Volume' 'FileSystemLabel' @($Bound['FileSystemLabel']) { param($v, $x) Test-WinSimLike ([string](Get-WinSimField $v 'label' '')) $x } -Wildcards)
    }
    if ($Bound.ContainsKey('FilePath')) {
        $volume = Find-WinSimVolumeOfPath $state ([string]$Bound['FilePath'])
        if ($null -eq $volume) { $Ctx.Items.Add((New-WinSimNotFound 'MSFT_Volume' 'FilePath' ([string]$Bound['FilePath']))); return , @() }
        return , @($volume)
    }
    return , $all
}

# The volume holding a path: the longest access path (mount folder, '/' or a drive root) that prefixes it.
function Find-WinSimVolumeOfPath($State, [string]$FilePath) {
    $best = $null
    $bestLength = -1
    $candidate = $FilePath.Replace('\', '/')
    foreach ($p in $State.partitions) {
        $roots = @(Get-WinSimField $p 'accessPaths' @())
        $letter = [string](Get-WinSimField $p 'driveLetter' '')
        if ($letter -ne '') { $roots += "$($letter):/" }
        foreach ($root in $roots) {
            $r = ([string]$root).Replace('\', '/')
            if (-not $r.EndsWith('/')) { $r += '/' }
            $c = $candidate
            if (-not $c.EndsWith('/')) { $c += '/' }
            if ($c.StartsWith($r, [StringComparison]::OrdinalIgnoreCase) -and $r.Length -gt $bestLength) {
                $best = Get-WinSimVolume $State ([string](Get-WinSimField $p 'volume' ''))
                $bestLength = $r.Length
            }
        }
    }
    return $best
}
