import { ps } from "@csi-proxy/exec";

// Mappings are found by listing them all and comparing RemotePath case-insensitively without a
// trailing `\`: `Get-SmbGlobalMapping -RemotePath` treats `[` `]` `*` `?` as wildcards, fails on
// a miss, and would not match a mapping someone created as `\\SRV\Share\`.

/** The mapping of one share root; when its Status is OK, `Test-Path` says whether it still opens. */
export const getMappingScript = ps("smb.getMapping")`
param([string]$ShareRoot)
$key = $ShareRoot.TrimEnd('\')
$found = $null
foreach ($mapping in @(Get-SmbGlobalMapping)) {
    if ([string]::Equals(([string]$mapping.RemotePath).TrimEnd('\'), $key, [System.StringComparison]::OrdinalIgnoreCase)) { $found = $mapping; break }
}
if ($null -eq $found) { return }
$status = [string]$found.Status
$valid = $null
if ($status -eq 'OK' -or $status -eq '0') {
    try { $valid = [bool](Test-Path -LiteralPath $ShareRoot) } catch { $valid = $false }
}
[pscustomobject]@{
    RemotePath = [string]$found.RemotePath
    LocalPath = [string]$found.LocalPath
    Status = $status
    PathValid = $valid
}
`;

/**
 * `Remove-SmbGlobalMapping -Force` of the old mapping when `$Replace`, then
 * `New-SmbGlobalMapping -RequirePrivacy`, with a PSCredential built here from the parameters
 * (the password never exists as script text) or without `-Credential` when no user is given.
 */
export const newMappingScript = ps("smb.newMapping")`
param([string]$ShareRoot, [string]$UserName, [string]$Password, [bool]$RequirePrivacy, [bool]$Replace)
if ($Replace) {
    $key = $ShareRoot.TrimEnd('\')
    foreach ($mapping in @(Get-SmbGlobalMapping)) {
        if ([string]::Equals(([string]$mapping.RemotePath).TrimEnd('\'), $key, [System.StringComparison]::OrdinalIgnoreCase)) {
            Remove-SmbGlobalMapping -InputObject $mapping -Force
        }
    }
}
if ($UserName) {
    $secure = ConvertTo-SecureString -String $Password -AsPlainText -Force
    $credential = New-Object -TypeName System.Management.Automation.PSCredential -ArgumentList $UserName, $secure
    $null = New-SmbGlobalMapping -RemotePath $ShareRoot -Credential $credential -RequirePrivacy $RequirePrivacy
} else {
    $null = New-SmbGlobalMapping -RemotePath $ShareRoot -RequirePrivacy $RequirePrivacy
}
`;

/** `Remove-SmbGlobalMapping -Force` of the share root's mapping; reports how many were removed. */
export const removeMappingScript = ps("smb.removeMapping")`
param([string]$ShareRoot)
$key = $ShareRoot.TrimEnd('\')
$removed = 0
foreach ($mapping in @(Get-SmbGlobalMapping)) {
    if ([string]::Equals(([string]$mapping.RemotePath).TrimEnd('\'), $key, [System.StringComparison]::OrdinalIgnoreCase)) {
        Remove-SmbGlobalMapping -InputObject $mapping -Force
        $removed = $removed + 1
    }
}
[pscustomobject]@{ Removed = $removed }
`;

/** `Get-SmbGlobalMapping`: every mapping's remote path, drive letter and status, always an array. */
export const listMappingsScript = ps("smb.listMappings")`
param()
, @(foreach ($mapping in @(Get-SmbGlobalMapping)) {
    [pscustomobject]@{
        RemotePath = [string]$mapping.RemotePath
        LocalPath = [string]$mapping.LocalPath
        Status = [string]$mapping.Status
    }
})
`;
