import { ps } from "@csi-proxy/exec";

/**
 * Follows `.Target` from the path through a chain of links (at most `$MaxDepth`) until a target
 * names a volume (`Volume{GUID}` anywhere in it, upstream's unanchored regex).
 */
export const resolveMountTargetScript = ps("volume.resolveMountTarget")`
param([string]$TargetPath, [int]$MaxDepth)
$current = $TargetPath
for ($step = 0; $step -lt $MaxDepth; $step++) {
    $item = Get-Item -LiteralPath $current -Force
    # Junctions and symbolic links only: 5.1 gives plain items hard-link "targets".
    $target = ''
    if ($item.LinkType -in 'Junction', 'SymbolicLink') { $target = [string](@($item.Target) | Select-Object -First 1) }
    if (-not $target) { return [pscustomobject]@{ Status = 'notMounted'; Path = $current } }
    $guid = [regex]::Match($target, 'Volume\{[\w-]*\}')
    if ($guid.Success) { return [pscustomobject]@{ Status = 'found'; VolumeId = '\\?\' + $guid.Value + '\' } }
    if (-not [System.IO.Path]::IsPathRooted($target)) { $target = Join-Path (Split-Path -Parent $current) $target }
    $current = $target
}
[pscustomobject]@{ Status = 'tooDeep' }
`;

/**
 * The volume holding a path: follow links, else match the folder against every partition's
 * AccessPaths (one Get-Partition up front; covers `C:\` on Windows and `/` on the simulator),
 * else walk up to the parent, at most `$MaxSteps` times.
 */
export const findClosestVolumeScript = ps("volume.findClosestVolume")`
param([string]$TargetPath, [int]$MaxSteps)
function ConvertTo-CsiPathKey([string]$Value) {
    $text = $Value
    if ($text -match '^\\\\\?\\[A-Za-z]:') { $text = $text.Substring(4) }
    $text = $text.TrimEnd('\', '/')
    if ($text -eq '') { $text = '/' }
    $text.ToLowerInvariant()
}
$byPath = @{}
foreach ($partition in @(Get-Partition)) {
    foreach ($accessPath in @($partition.AccessPaths)) {
        if ($accessPath) { $byPath[(ConvertTo-CsiPathKey $accessPath)] = $partition }
    }
}
$current = $TargetPath
for ($step = 0; $step -lt $MaxSteps; $step++) {
    $item = Get-Item -LiteralPath $current -Force
    # LinkType HardLink (a file with several names) is no link to follow.
    $target = ''
    if ($item.LinkType -in 'Junction', 'SymbolicLink') { $target = [string](@($item.Target) | Select-Object -First 1) }
    if ($target) {
        $guid = [regex]::Match($target, 'Volume\{[\w-]*\}')
        if ($guid.Success) { return [pscustomobject]@{ Status = 'found'; VolumeId = '\\?\' + $guid.Value + '\' } }
        if (-not [System.IO.Path]::IsPathRooted($target)) { $target = Join-Path (Split-Path -Parent $current) $target }
        $current = $target
        continue
    }
    $owner = $byPath[(ConvertTo-CsiPathKey $current)]
    if ($null -ne $owner) {
        $volume = @($owner | Get-Volume)[0]
        if ($null -eq $volume) { return [pscustomobject]@{ Status = 'noVolume'; Path = $current } }
        return [pscustomobject]@{ Status = 'found'; VolumeId = [string]$volume.UniqueId }
    }
    $parent = [System.IO.Path]::GetDirectoryName($current)
    if (-not $parent) { return [pscustomobject]@{ Status = 'noVolume'; Path = $current } }
    $current = $parent
}
[pscustomobject]@{ Status = 'tooDeep' }
`;
