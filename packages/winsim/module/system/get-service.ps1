function Get-Service {
    [CmdletBinding(DefaultParameterSetName = 'Default')]
    [OutputType('System.ServiceProcess.ServiceController')]
    param(
        [Parameter(ParameterSetName = 'Default', Position = 0, ValueFromPipeline, ValueFromPipelineByPropertyName)]
        [Alias('ServiceName')]
        [string[]]$Name,
        [Parameter(ValueFromPipelineByPropertyName)]
        [Alias('Cn')]
        [string[]]$ComputerName,
        [Alias('DS')]
        [switch]$DependentServices,
        [Alias('SDO', 'ServicesDependedOn')]
        [switch]$RequiredServices,
        [Parameter(ParameterSetName = 'DisplayName', Mandatory)]
        [string[]]$DisplayName,
        [string[]]$Include,
        [string[]]$Exclude,
        [Parameter(ParameterSetName = 'InputObject', ValueFromPipeline)]
        [PSTypeName('System.ServiceProcess.ServiceController')]
        [object[]]$InputObject
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimSystemCommand $PSCmdlet $bound (Get-WinSimServiceTarget $InputObject) {
            param($ctx, $system)
            $now = Get-WinSimNow
            foreach ($svc in (Select-WinSimServices $ctx $system $bound)) {
                # -DependentServices / -RequiredServices list the direct relatives instead of the service.
                if (-not $DependentServices -and -not $RequiredServices) { $ctx.Items.Add((New-WinSimServiceObject $svc $now)); continue }
                if ($DependentServices) { foreach ($d in (Get-WinSimServiceDependents $system ([string]$svc.name))) { $ctx.Items.Add((New-WinSimServiceObject $d $now)) } }
                if ($RequiredServices) { foreach ($r in (Get-WinSimServiceRequired $system $svc)) { $ctx.Items.Add((New-WinSimServiceObject $r $now)) } }
            }
        } $null
    }
}
