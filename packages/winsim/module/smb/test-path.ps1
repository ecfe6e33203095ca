# Why a proxy: pwsh on Linux cannot open \\server\share, yet scripts test a mapping with Test-Path on its UNC path.
# UNC paths are answered from the simulated mappings and share folders; every other call goes to the real cmdlet unchanged.
function Test-Path {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    [OutputType([bool])]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory, Position = 0, ValueFromPipeline, ValueFromPipelineByPropertyName)]
        [AllowNull()][AllowEmptyCollection()][AllowEmptyString()]
        [string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory, ValueFromPipelineByPropertyName)]
        [Alias('PSPath', 'LP')]
        [AllowNull()][AllowEmptyCollection()][AllowEmptyString()]
        [string[]]$LiteralPath,
        [string]$Filter,
        [string[]]$Include,
        [string[]]$Exclude,
        [Alias('Type')]
        [Microsoft.PowerShell.Commands.TestPathType]$PathType,
        [switch]$IsValid,
        [Parameter(ValueFromPipelineByPropertyName)]
        [pscredential]
        [System.Management.Automation.CredentialAttribute()]
        $Credential,
        # FileSystem dynamic parameters of the real cmdlet, declared statically here.
        [datetime]$OlderThan,
        [datetime]$NewerThan
    )
    process {
        $key = if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { 'LiteralPath' } else { 'Path' }
        $paths = @($PSBoundParameters[$key])
        $anyUnc = $false
        foreach ($p in $paths) { if ($null -ne (ConvertFrom-WinSimUnc ([string]$p))) { $anyUnc = $true } }
        if (-not $anyUnc) {
            Microsoft.PowerShell.Management\Test-Path @PSBoundParameters
            return
        }
        # Not named $bound: inside the action that name is Invoke-WinSimCommand's logged copy.
        $testBound = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet (ConvertTo-WinSimSmbLogBound $testBound) ([ordered]@{}) {
            param($ctx)
            $smb = Get-WinSimSmb $ctx.State
            foreach ($p in $paths) {
                $one = @{} + $testBound
                $unc = ConvertFrom-WinSimUnc ([string]$p)
                if ($null -eq $unc) {
                    $one[$key] = @($p)
                    foreach ($r in @(Microsoft.PowerShell.Management\Test-Path @one)) { $ctx.Items.Add($r) }
                    continue
                }
                $open = $false
                foreach ($m in $smb.mappings) { if ((Test-WinSimSmbCovers $m $unc) -and (Test-WinSimSmbMappingWorks $smb $m)) { $open = $true } }
                if ($IsValid) { $ctx.Items.Add($true); continue }
                if (-not $open) { $ctx.Items.Add($false); continue }
                $one[$key] = @(Get-WinSimSmbLocalPath $unc)
                foreach ($r in @(Microsoft.PowerShell.Management\Test-Path @one)) { $ctx.Items.Add($r) }
            }
        }
    }
}
