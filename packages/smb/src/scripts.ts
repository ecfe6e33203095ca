import { ps } from "@csi-proxy/exec";

// Mappings are found by listing them all and comparing RemotePath case-insensitively without a
// trailing `\`: `Get-SmbGlobalMapping -RemotePath` treats `[` `]` `*` `?` as wildcards, fails on
// a miss, and would not match a mapping someone created as `\\SRV\Share\`.

/**
 * Makes the share root's mapping usable in one round trip: reads the mappings once, reuses the
 * share root's mapping when its Status is OK and `Test-Path` opens its path (`Reused`), else
 * removes every mapping of the share root found by that read (`Remove-SmbGlobalMapping -Force`,
 * a stale one after a password change, a not-OK one) and creates it (`Recreated`), or creates it
 * when there is none (`Created`). Creating: with a user, `New-SmbGlobalMapping -Credential` with a
 * PSCredential built here from the parameters (the password never exists as script text);
 * without one, the WMI method `MSFT_SmbGlobalMapping.Create` with no Credential (the cmdlet makes
 * `-Credential` mandatory, learn.microsoft.com New-SmbGlobalMapping; upstream csi-proxy calls the
 * method the same way), so the node's own identity (its computer account, over Kerberos) is
 * used. The method's failures arrive as CimException errors, `Windows System Error <n>` as for the
 * cmdlet (CimWriteError.cs); a non-zero ReturnValue without one is still a failure.
 */
export const ensureMappingScript = ps("smb.ensureMapping")`
param([string]$ShareRoot, [string]$UserName, [string]$Password, [bool]$RequirePrivacy)
$key = $ShareRoot.TrimEnd('\')
$matched = @(foreach ($mapping in @(Get-SmbGlobalMapping)) {
    if ([string]::Equals(([string]$mapping.RemotePath).TrimEnd('\'), $key, [System.StringComparison]::OrdinalIgnoreCase)) { $mapping }
})
if ($matched.Count -gt 0) {
    $status = [string]$matched[0].Status
    if ($status -eq 'OK' -or $status -eq '0') {
        $valid = $false
        try { $valid = [bool](Test-Path -LiteralPath $ShareRoot) } catch { $valid = $false }
        if ($valid) { return [pscustomobject]@{ Outcome = 'Reused' } }
    }
    foreach ($mapping in $matched) { Remove-SmbGlobalMapping -InputObject $mapping -Force }
}
if ($UserName) {
    # Built with .NET calls, never a cmdlet parameter: module logging records parameter values.
    $secure = [System.Security.SecureString]::new()
    foreach ($char in $Password.ToCharArray()) { $secure.AppendChar($char) }
    $secure.MakeReadOnly()
    $credential = [System.Management.Automation.PSCredential]::new($UserName, $secure)
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
$outcome = 'Created'
if ($matched.Count -gt 0) { $outcome = 'Recreated' }
[pscustomobject]@{ Outcome = $outcome }
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
