# A volume GUID for New-Partition: the next of the scenario's seeded sequence (SimState.seed, see
# src/seeded-guid.ts for the same formula), or a random one when the scenario has no seed.
function New-WinSimVolumeGuid($State) {
    $seed = Get-WinSimField $State 'seed' $null
    if ($null -eq $seed) { return [guid]::NewGuid().ToString() }
    $n = [int]$seed.next
    $seed.next = $n + 1
    $sha = [System.Security.Cryptography.SHA256]::Create()
    try { $hash = $sha.ComputeHash([System.Text.Encoding]::UTF8.GetBytes([string]$seed.value + ':' + $n)) } finally { $sha.Dispose() }
    $bytes = $hash[0..15]
    $bytes[6] = ($bytes[6] -band 0x0f) -bor 0x40
    $bytes[8] = ($bytes[8] -band 0x3f) -bor 0x80
    $hex = -join ($bytes | ForEach-Object { $_.ToString('x2') })
    return '{0}-{1}-{2}-{3}-{4}' -f $hex.Substring(0, 8), $hex.Substring(8, 4), $hex.Substring(12, 4), $hex.Substring(16, 4), $hex.Substring(20)
}
