# The checks in the order Windows meets them: path, server, session (1219), logon, share, access, folder, duplicates.
# Shared by New-SmbGlobalMapping and MSFT_SmbGlobalMapping.Create through Invoke-CimMethod (one provider behind both).
# Returns an ErrorRecord, or the new mapping after adding it to the state.
function Add-WinSimSmbMapping($Smb, [System.Collections.IDictionary]$Request) {
    $unc = ConvertFrom-WinSimUnc $Request.RemotePath
    if ($null -eq $unc) { return (New-WinSimSmbError 87) }
    $local = [string]$Request.LocalPath
    if ($local -ne '' -and $local -notmatch '^[A-Za-z]:$') { return (New-WinSimSmbError 87) }
    $server = Find-WinSimSmbServer $Smb $unc.Server
    if ($null -eq $server) { return (New-WinSimSmbError 53) }
    # No credential (MSFT_SmbGlobalMapping.Create without Credential): the node's own identity, recorded as user ''.
    $computer = $Request.Contains('ComputerAccount') -and [bool]$Request['ComputerAccount']
    $user = if ($computer) { '' } else { [string]$Request.User }
    $key = Get-WinSimSmbKey $Request.RemotePath
    foreach ($m in $Smb.mappings) {
        $other = ConvertFrom-WinSimUnc ([string]$m.remotePath)
        if ($null -eq $other -or -not (Test-WinSimSameName $other.Server $unc.Server)) { continue }
        # One SMB session per server and user: a second user name, or the same share under another path, is 1219.
        if (-not (Test-WinSimSameName $m.user $user)) { return (New-WinSimSmbError 1219) }
        if ((Test-WinSimSameName $other.Share $unc.Share) -and (Get-WinSimSmbKey $m.remotePath) -ne $key) { return (New-WinSimSmbError 1219) }
    }
    $hash = ''
    if (-not $computer) {
        $account = Find-WinSimSmbAccount $server $user
        $hash = Get-WinSimSmbHash $Request.Password
        if ($null -eq $account -or [string]$account.passwordSha256 -ne $hash) { return (New-WinSimSmbError 1326) }
        $user = [string]$account.user
    }
    $share = Find-WinSimSmbShare $server $unc.Share
    if ($null -eq $share) { return (New-WinSimSmbError 67) }
    # A computer account the share does not admit: logged on (Kerberos) but refused, ERROR_ACCESS_DENIED (inferred; docs/design/winsim.md).
    if ($computer -and -not (Test-WinSimSmbShareAllowsComputer $share)) { return (New-WinSimSmbError 5) }
    if (-not $computer -and -not (Test-WinSimSmbShareAllows $share $user)) { return (New-WinSimSmbError 5) }
    # RequirePrivacy against a server without SMB encryption: the client refuses the session.
    if ($Request.RequirePrivacy -and -not [bool](Get-WinSimField $server 'encryption' $true)) { return (New-WinSimSmbError 5) }
    if (-not [System.IO.Directory]::Exists((Get-WinSimSmbLocalPath $unc))) { return (New-WinSimSmbError 67) }
    foreach ($m in $Smb.mappings) {
        if ((Get-WinSimSmbKey $m.remotePath) -eq $key) { return (New-WinSimSmbError 85) }
        if ($local -ne '' -and (Test-WinSimSameName ([string](Get-WinSimField $m 'localPath' '')) $local)) { return (New-WinSimSmbError 85) }
    }
    $mapping = [pscustomobject][ordered]@{
        remotePath       = [string]$Request.RemotePath
        localPath        = $local.ToUpperInvariant()
        status           = 0
        user             = $user
        passwordSha256   = $hash
        requirePrivacy   = [bool]$Request.RequirePrivacy
        requireIntegrity = [bool]$Request.RequireIntegrity
        useWriteThrough  = [bool]$Request.UseWriteThrough
        persistent       = [bool]$Request.Persistent
    }
    $Smb.mappings.Add($mapping)
    return $mapping
}

function New-SmbGlobalMapping {
    [CmdletBinding(SupportsShouldProcess, ConfirmImpact = 'Medium')]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/SMB/MSFT_SmbGlobalMapping')]
    param(
        [Parameter(Position = 0)]
        [string]$LocalPath,
        [Parameter(Mandatory, Position = 1)]
        [string]$RemotePath,
        [Parameter(Mandatory)]
        [pscredential]$Credential,
        [bool]$Persistent,
        [bool]$RequireIntegrity,
        [bool]$RequirePrivacy,
        [bool]$UseWriteThrough,
        [string[]]$FullAccess,
        [string[]]$DenyAccess,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $request = @{
            RemotePath = $RemotePath; LocalPath = $LocalPath; User = $Credential.UserName
            Password = $Credential.GetNetworkCredential().Password; RequirePrivacy = $RequirePrivacy
            RequireIntegrity = $RequireIntegrity; UseWriteThrough = $UseWriteThrough; Persistent = $Persistent
        }
        Invoke-WinSimCommand $PSCmdlet (ConvertTo-WinSimSmbLogBound $PSBoundParameters) ([ordered]@{}) {
            param($ctx)
            if (-not $PSCmdlet.ShouldProcess($RemotePath, 'New-SmbGlobalMapping')) { return }
            $result = Add-WinSimSmbMapping (Get-WinSimSmb $ctx.State) $request
            if ($result -is [System.Management.Automation.ErrorRecord]) { $ctx.Items.Add($result); return }
            $ctx.Changed = $true
            $ctx.Items.Add((New-WinSimSmbMappingObject $result))
        }
    }
}
