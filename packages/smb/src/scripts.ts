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
 * `Remove-SmbGlobalMapping -Force` of the old mapping when `$Replace`, then the mapping: with a
 * user, `New-SmbGlobalMapping -Credential` with a PSCredential built here from the parameters
 * (the password never exists as script text); without one, the WMI method
 * `MSFT_SmbGlobalMapping.Create` with no Credential (the cmdlet makes `-Credential` mandatory,
 * learn.microsoft.com New-SmbGlobalMapping; upstream csi-proxy calls the method the same way), so
 * the node's own identity (its computer account, over Kerberos) is used. The method's failures
 * arrive as CimException errors, `Windows System Error <n>` as for the cmdlet (CimWriteError.cs);
 * a non-zero ReturnValue without one is still a failure.
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
    $arguments = @{ RemotePath = $ShareRoot; RequirePrivacy = $RequirePrivacy }
    $result = Invoke-CimMethod -Namespace 'ROOT/Microsoft/Windows/SMB' -ClassName 'MSFT_SmbGlobalMapping' -MethodName 'Create' -Arguments $arguments
    if ($null -eq $result -or [uint32]$result.ReturnValue -ne 0) {
        $code = 'none'
        if ($null -ne $result) { $code = [string]$result.ReturnValue }
        throw "MSFT_SmbGlobalMapping.Create returned $code for the share."
    }
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
