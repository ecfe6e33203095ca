# The initiator's node-wide mutual CHAP secret: what a target must present in a MUTUALCHAP login.
function Set-IscsiChapSecret {
    [CmdletBinding(PositionalBinding = $false)]
    param(
        [string]$ChapSecret,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $params = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet (Get-WinSimIscsiLogBound $params) $null {
            param($ctx)
            $iscsi = Get-WinSimIscsi $ctx.State
            $err = Test-WinSimIscsiService $ctx.State $iscsi 'MSFT_iSCSISession'
            if ($null -ne $err) { $ctx.Items.Add($err); return }
            if (-not [string]::IsNullOrEmpty($ChapSecret) -and -not (Test-WinSimChapSecretLength $ChapSecret)) {
                $ctx.Items.Add((New-WinSimIscsiError 'efff004c' 'MSFT_iSCSISession'))
                return
            }
            $iscsi.initiator.mutualChapSecret = if ([string]::IsNullOrEmpty($ChapSecret)) { $null } else { $ChapSecret }
            $ctx.Changed = $true
        }
    }
}
