# Why a proxy: the volume scripts resolve mount points with Get-Item, and a simulator that cannot
# log or fault that step cannot prove what those scripts do when it fails. The item itself always
# comes from the real cmdlet; only the call log and the fault check are added, so the logged
# outcome says whether the simulator let the call through, not whether the path existed.
function Get-Item {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory, Position = 0, ValueFromPipeline, ValueFromPipelineByPropertyName)]
        [string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory, ValueFromPipelineByPropertyName)]
        [Alias('PSPath', 'LP')]
        [string[]]$LiteralPath,
        [string]$Filter,
        [string[]]$Include,
        [string[]]$Exclude,
        [switch]$Force,
        [Parameter(ValueFromPipelineByPropertyName)]
        [pscredential]
        [System.Management.Automation.CredentialAttribute()]
        $Credential,
        # A FileSystem dynamic parameter of the real cmdlet, declared statically here.
        [string[]]$Stream
    )
    process {
        # Not named $bound: inside the action that name is Invoke-WinSimCommand's logged copy.
        $itemBound = @{} + $PSBoundParameters
        $gate = @{ open = $false }
        Invoke-WinSimCommand $PSCmdlet $itemBound ([ordered]@{}) { param($ctx) $gate.open = $true } -Stateless
        # Outside the simulator, so the real cmdlet writes its own errors: an error written from a
        # function would carry the function's name in its id (PathNotFound,Get-Item), not the cmdlet's.
        if ($gate.open) { Microsoft.PowerShell.Management\Get-Item @itemBound }
    }
}
