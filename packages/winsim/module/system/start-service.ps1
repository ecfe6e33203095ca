function Start-Service {
    [CmdletBinding(DefaultParameterSetName = 'InputObject', SupportsShouldProcess)]
    [OutputType('System.ServiceProcess.ServiceController')]
    param(
        [Parameter(ParameterSetName = 'InputObject', Mandatory, Position = 0, ValueFromPipeline)]
        [PSTypeName('System.ServiceProcess.ServiceController')]
        [object[]]$InputObject,
        [Parameter(ParameterSetName = 'Default', Mandatory, Position = 0, ValueFromPipeline, ValueFromPipelineByPropertyName)]
        [Alias('ServiceName')]
        [string[]]$Name,
        [Parameter(ParameterSetName = 'DisplayName', Mandatory)]
        [string[]]$DisplayName,
        [switch]$PassThru,
        [string[]]$Include,
        [string[]]$Exclude
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimSystemCommand $PSCmdlet $bound (Get-WinSimServiceTarget $InputObject) {
            param($ctx, $system)
            $now = Get-WinSimNow
            foreach ($svc in (Select-WinSimServices $ctx $system $bound)) {
                $label = Format-WinSimServiceLabel $svc
                if (-not $PSCmdlet.ShouldProcess($label, 'Start-Service')) { continue }
                $result = Start-WinSimService $ctx $system $svc $now ([ref]0.0)
                # PowerShell ignores "already running" and then waits for Running like any start.
                if ($result -eq '' -or $result.StartsWith('1056|')) { $ctx.Plan.Add([string]$svc.name); continue }
                $inner = New-WinSimControllerException 'start' ([string]$svc.name) $result
                $ctx.Items.Add((New-WinSimServiceError 'CouldNotStartService' "Service '$label' cannot be started due to the following error: $($inner.Message)" 'OpenError' (New-WinSimServiceObject $svc $now) ([string]$svc.name) $inner))
            }
        } {
            param($ctx)
            foreach ($name in $ctx.Plan) { $null = Wait-WinSimServiceStatus $PSCmdlet $ctx $name 4 2 'start' ([bool]$PassThru) }
        }
    }
}
