function Get-CimInstance {
    [CmdletBinding(DefaultParameterSetName = 'ClassNameComputerSet')]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance')]
    param(
        [Parameter(ParameterSetName = 'ResourceUriSessionSet', Mandatory, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'QuerySessionSet', Mandatory, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'ClassNameSessionSet', Mandatory, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'CimInstanceSessionSet', Mandatory, ValueFromPipeline)]
        [Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [Parameter(ParameterSetName = 'ClassNameComputerSet', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ClassNameSessionSet', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [string]$ClassName,
        [Parameter(ParameterSetName = 'ClassNameComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'CimInstanceComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QueryComputerSet', ValueFromPipelineByPropertyName)]
        [Alias('CN', 'ServerName')]
        [string[]]$ComputerName,
        [Parameter(ParameterSetName = 'ClassNameComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriSessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ClassNameSessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriComputerSet', ValueFromPipelineByPropertyName)]
        [string]$Filter,
        [Parameter(ParameterSetName = 'CimInstanceSessionSet', Mandatory, Position = 0, ValueFromPipeline)]
        [Parameter(ParameterSetName = 'CimInstanceComputerSet', Mandatory, Position = 0, ValueFromPipeline)]
        [Alias('CimInstance')]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance')]
        [psobject]$InputObject,
        [Parameter(ParameterSetName = 'ClassNameComputerSet')]
        [Parameter(ParameterSetName = 'ResourceUriSessionSet')]
        [Parameter(ParameterSetName = 'ClassNameSessionSet')]
        [Parameter(ParameterSetName = 'ResourceUriComputerSet')]
        [switch]$KeyOnly,
        [Parameter(ParameterSetName = 'ClassNameComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriSessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QuerySessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ClassNameSessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QueryComputerSet', ValueFromPipelineByPropertyName)]
        [string]$Namespace,
        [Alias('OT')]
        [uint32]$OperationTimeoutSec,
        [Parameter(ParameterSetName = 'ClassNameComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriSessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ClassNameSessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriComputerSet', ValueFromPipelineByPropertyName)]
        [Alias('SelectProperties')]
        [string[]]$Property,
        [Parameter(ParameterSetName = 'QuerySessionSet', Mandatory, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QueryComputerSet', Mandatory, ValueFromPipelineByPropertyName)]
        [string]$Query,
        [Parameter(ParameterSetName = 'ClassNameComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QuerySessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ClassNameSessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QueryComputerSet', ValueFromPipelineByPropertyName)]
        [string]$QueryDialect,
        [Parameter(ParameterSetName = 'ResourceUriSessionSet', Mandatory, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'ResourceUriComputerSet', Mandatory, ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QuerySessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'QueryComputerSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'CimInstanceSessionSet', ValueFromPipelineByPropertyName)]
        [Parameter(ParameterSetName = 'CimInstanceComputerSet', ValueFromPipelineByPropertyName)]
        [uri]$ResourceUri,
        [Parameter(ParameterSetName = 'ClassNameComputerSet')]
        [Parameter(ParameterSetName = 'ResourceUriSessionSet')]
        [Parameter(ParameterSetName = 'QuerySessionSet')]
        [Parameter(ParameterSetName = 'ClassNameSessionSet')]
        [Parameter(ParameterSetName = 'ResourceUriComputerSet')]
        [Parameter(ParameterSetName = 'QueryComputerSet')]
        [switch]$Shallow
    )
    process {
        $bound = $PSBoundParameters
        $early = Resolve-WinSimCimRequest $bound
        # The iSCSI class reads the initiator's state only: the System area is not materialised (so
        # a node whose scenario declares none keeps its initiator running, as every iSCSI cmdlet sees it).
        if ($early -isnot [System.Management.Automation.ErrorRecord] -and $early.Namespace -eq 'root/wmi') {
            Invoke-WinSimCommand $PSCmdlet $bound ([ordered]@{}) {
                param($ctx)
                $found = Get-WinSimCimInstances $null $early (Get-WinSimNow) $ctx.State
                if ($found -is [System.Management.Automation.ErrorRecord]) { $ctx.Items.Add($found); return }
                $filtered = Select-WinSimCimByFilter @($found) $early.Filter
                if ($filtered -is [System.Management.Automation.ErrorRecord]) { $ctx.Items.Add($filtered); return }
                foreach ($o in @($filtered)) { $ctx.Items.Add($o) }
            } -ErrorWriter $script:WinSimErrorWriters['Get-CimInstance']
            return
        }
        Invoke-WinSimSystemCommand $PSCmdlet $bound ([ordered]@{}) {
            param($ctx, $system)
            $request = Resolve-WinSimCimRequest $bound
            if ($request -is [System.Management.Automation.ErrorRecord]) { $ctx.Items.Add($request); return }
            $found = Get-WinSimCimInstances $system $request (Get-WinSimNow) $ctx.State
            if ($found -is [System.Management.Automation.ErrorRecord]) { $ctx.Items.Add($found); return }
            $filtered = Select-WinSimCimByFilter @($found) $request.Filter
            if ($filtered -is [System.Management.Automation.ErrorRecord]) { $ctx.Items.Add($filtered); return }
            foreach ($o in @($filtered)) { $ctx.Items.Add((Select-WinSimCimProperties $o $request.Properties)) }
        } $null
    }
}
