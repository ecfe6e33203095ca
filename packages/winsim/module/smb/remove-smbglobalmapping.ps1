function Remove-SmbGlobalMapping {
    [CmdletBinding(DefaultParameterSetName = 'Query (cdxml)', SupportsShouldProcess, ConfirmImpact = 'High')]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/SMB/MSFT_SmbGlobalMapping')]
    param(
        [Parameter(ParameterSetName = 'Query (cdxml)', Position = 0, ValueFromPipelineByPropertyName)]
        [string[]]$LocalPath,
        [Parameter(ParameterSetName = 'Query (cdxml)', Position = 1, ValueFromPipelineByPropertyName)]
        [string[]]$RemotePath,
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/SMB/MSFT_SmbGlobalMapping')]
        [object[]]$InputObject,
        [switch]$Force,
        [switch]$PassThru,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet $bound (Get-WinSimSmbTarget @($InputObject)[0]) {
            param($ctx)
            $smb = Get-WinSimSmb $ctx.State
            foreach ($m in (Select-WinSimSmbMappings $ctx $bound)) {
                # -Force skips the confirmation (ConfirmImpact High); without it a non-interactive host cannot prompt.
                if ($WhatIfPreference -or -not $Force) {
                    if (-not $PSCmdlet.ShouldProcess("$(Get-WinSimField $m 'localPath' ''),$($m.remotePath)", 'Close-Connection')) { continue }
                }
                [void]$smb.mappings.Remove($m)
                $ctx.Changed = $true
                if ($PassThru) { $ctx.Items.Add((New-WinSimSmbMappingObject $m)) }
            }
        }
    }
}
