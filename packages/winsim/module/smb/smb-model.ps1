# The SMB part of state.json (servers with accounts and shares, global mappings) and its rules.
$script:WinSimSmbStatusNames = @{ 0 = 'OK'; 1 = 'Paused'; 2 = 'Disconnected'; 3 = 'NetworkError'; 4 = 'Connecting'; 5 = 'Reconnecting'; 6 = 'Unavailable' }

# A scenario without SMB has no 'smb' key; cmdlets still work on an empty one.
function Get-WinSimSmb($State) {
    if ($null -eq $State.PSObject.Properties['smb'] -or $null -eq $State.smb) {
        $State | Add-Member -NotePropertyName 'smb' -NotePropertyValue ([pscustomobject]@{ version = 1; servers = @(); mappings = @() }) -Force
    }
    $smb = $State.smb
    foreach ($name in @('servers', 'mappings')) {
        if ($null -eq $smb.PSObject.Properties[$name]) { $smb | Add-Member -NotePropertyName $name -NotePropertyValue @() }
        if ($smb.$name -isnot [System.Collections.Generic.List[object]]) {
            $smb.$name = [System.Collections.Generic.List[object]]@($smb.$name | Where-Object { $null -ne $_ })
        }
    }
    return $smb
}

# \\server\share[\rest...] with either separator after the leading '\\'; device paths (\\?\, \\.\) are not UNC.
function ConvertFrom-WinSimUnc([string]$Path) {
    if ($Path -notmatch '^\\\\([^\\/]+)[\\/]+([^\\/]+)((?:[\\/]+[^\\/]*)*)$') { return $null }
    $server = $Matches[1]
    if ($server -eq '?' -or $server -eq '.') { return $null }
    $rest = @($Matches[3] -split '[\\/]+' | Where-Object { $_ -ne '' })
    return [pscustomobject]@{ Server = $server; Share = $Matches[2]; Rest = $rest }
}

function Test-WinSimSameName([string]$A, [string]$B) {
    return [string]::Equals($A, $B, [StringComparison]::OrdinalIgnoreCase)
}

function Find-WinSimSmbServer($Smb, [string]$Name) {
    foreach ($s in $Smb.servers) { if (Test-WinSimSameName $s.name $Name) { return $s } }
    return $null
}

function Find-WinSimSmbShare($Server, [string]$Name) {
    foreach ($s in @(Get-WinSimField $Server 'shares' @())) { if (Test-WinSimSameName $s.name $Name) { return $s } }
    return $null
}

function Find-WinSimSmbAccount($Server, [string]$User) {
    foreach ($a in @(Get-WinSimField $Server 'accounts' @())) { if (Test-WinSimSameName $a.user $User) { return $a } }
    return $null
}

# state.json keeps only password hashes, so it never holds a secret.
function Get-WinSimSmbHash([string]$Password) {
    $bytes = [System.Security.Cryptography.SHA256]::HashData([System.Text.Encoding]::UTF8.GetBytes($Password))
    return [Convert]::ToHexString($bytes).ToLowerInvariant()
}

# The node's computer account (a credential-less mapping authenticates as DOMAIN\NODE$ over Kerberos)
# may use a share only when the scenario says so; unknown on a real server, so it defaults to no.
function Test-WinSimSmbShareAllowsComputer($Share) {
    return [bool](Get-WinSimField $Share 'computerAccount' $false)
}

function Test-WinSimSmbShareAllows($Share, [string]$User) {
    $users = Get-WinSimField $Share 'users'
    if ($null -eq $users) { return $true }
    foreach ($u in @($users)) { if (Test-WinSimSameName $u $User) { return $true } }
    return $false
}

# The Linux folder standing in for a share: <CSI_WINSIM_DIR>/shares/<server>/<share>, created on first use.
function Get-WinSimSmbShareRoot([string]$Server, [string]$Share) {
    $dir = [System.IO.Path]::Combine((Get-WinSimDir), 'shares', $Server.ToLowerInvariant(), $Share.ToLowerInvariant())
    [void][System.IO.Directory]::CreateDirectory($dir)
    return $dir
}

function Get-WinSimSmbLocalPath($Unc) {
    $root = Get-WinSimSmbShareRoot $Unc.Server $Unc.Share
    if ($Unc.Rest.Count -eq 0) { return $root }
    return [System.IO.Path]::Combine([string[]](@($root) + $Unc.Rest))
}

# Whether a mapping still opens: status OK, its server, share and account exist, and the password it was made with is current.
# A mapping made without a credential (user '') opens while the share lets the computer account in.
function Test-WinSimSmbMappingWorks($Smb, $Mapping) {
    if ([int]$Mapping.status -ne 0) { return $false }
    $unc = ConvertFrom-WinSimUnc ([string]$Mapping.remotePath)
    if ($null -eq $unc) { return $false }
    $server = Find-WinSimSmbServer $Smb $unc.Server
    if ($null -eq $server) { return $false }
    $share = Find-WinSimSmbShare $server $unc.Share
    if ([string]$Mapping.user -eq '') { return ($null -ne $share -and (Test-WinSimSmbShareAllowsComputer $share)) }
    $account = Find-WinSimSmbAccount $server ([string]$Mapping.user)
    if ($null -eq $share -or $null -eq $account) { return $false }
    if ([string]$account.passwordSha256 -ne [string]$Mapping.passwordSha256) { return $false }
    return (Test-WinSimSmbShareAllows $share $account.user)
}

# Whether $Unc lies at or below the mapping's remote path (same server and share, case-insensitive).
function Test-WinSimSmbCovers($Mapping, $Unc) {
    $m = ConvertFrom-WinSimUnc ([string]$Mapping.remotePath)
    if ($null -eq $m -or -not (Test-WinSimSameName $m.Server $Unc.Server) -or -not (Test-WinSimSameName $m.Share $Unc.Share)) { return $false }
    if ($m.Rest.Count -gt $Unc.Rest.Count) { return $false }
    for ($i = 0; $i -lt $m.Rest.Count; $i++) { if (-not (Test-WinSimSameName $m.Rest[$i] $Unc.Rest[$i])) { return $false } }
    return $true
}

function Get-WinSimSmbKey([string]$RemotePath) {
    return $RemotePath.TrimEnd('\').ToLowerInvariant()
}
