# Resolves the mapping selectors shared by Get- and Remove-SmbGlobalMapping (wildcards allowed, as CDXML queries).
function Select-WinSimSmbMappings($Ctx, [System.Collections.IDictionary]$Bound) {
    $smb = Get-WinSimSmb $Ctx.State
    $all = @($smb.mappings)
    if ($Bound.ContainsKey('InputObject')) {
        $out = [System.Collections.Generic.List[object]]::new()
        foreach ($o in @($Bound['InputObject'])) {
            $hit = @($all | Where-Object { (Test-WinSimSameName $_.remotePath ([string]$o.RemotePath)) -and (Test-WinSimSameName ([string](Get-WinSimField $_ 'localPath' '')) ([string]$o.LocalPath)) })
            # The instance is gone: the method call on it fails as a closed connection does.
            if ($hit.Count -eq 0) { $Ctx.Items.Add((New-WinSimSmbError 2250)) }
            foreach ($h in $hit) { $out.Add($h) }
        }
        return , $out.ToArray()
    }
    $result = $all
    if ($Bound.ContainsKey('LocalPath')) {
        $result = Select-WinSimByValues $Ctx $result 'MSFT_SmbGlobalMapping' 'LocalPath' @($Bound['LocalPath']) { param($m, $v) Test-WinSimLike ([string](Get-WinSimField $m 'localPath' '')) $v } -Wildcards
    }
    if ($Bound.ContainsKey('RemotePath')) {
        $result = Select-WinSimByValues $Ctx $result 'MSFT_SmbGlobalMapping' 'RemotePath' @($Bound['RemotePath']) { param($m, $v) Test-WinSimLike ([string]$m.remotePath) $v } -Wildcards
    }
    return , @($result)
}

function Get-SmbGlobalMapping {
    [CmdletBinding()]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/SMB/MSFT_SmbGlobalMapping')]
    param(
        [Parameter(Position = 0, ValueFromPipelineByPropertyName)]
        [string[]]$LocalPath,
        [Parameter(Position = 1, ValueFromPipelineByPropertyName)]
        [string[]]$RemotePath,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet $bound ([ordered]@{}) {
            param($ctx)
            foreach ($m in (Select-WinSimSmbMappings $ctx $bound)) { $ctx.Items.Add((New-WinSimSmbMappingObject $m)) }
        }
    }
}
