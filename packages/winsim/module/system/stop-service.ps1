function Stop-Service {
    [CmdletBinding(DefaultParameterSetName = 'InputObject', SupportsShouldProcess)]
    [OutputType('System.ServiceProcess.ServiceController')]
    param(
        [switch]$Force,
        [switch]$NoWait,
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
                if (-not $PSCmdlet.ShouldProcess($label, 'Stop-Service')) { continue }
                # Without -Force, PowerShell refuses while any direct dependent is not stopped.
                $active = @((Get-WinSimServiceDependents $system ([string]$svc.name)) | Where-Object { (Get-WinSimServiceStatus $_ $now) -ne 1 })
                if (-not $Force -and $active.Count -gt 0) {
                    $message = "Cannot stop service '$label' because it has dependent services. It can only be stopped if the Force flag is set."
                    $ctx.Items.Add((New-WinSimServiceError 'ServiceHasDependentServices' $message 'InvalidOperation' (New-WinSimServiceObject $svc $now) ([string]$svc.name)))
                    continue
                }
                $ctx.Plan.Add([string]$svc.name)
            }
        } {
            param($ctx)
            foreach ($name in $ctx.Plan) {
                if (-not (Stop-WinSimServiceTree $ctx $name ([bool]$Force))) { continue }
                if ($NoWait) {
                    if ($PassThru) { $o = Use-WinSimSystemState { param($c, $system, $now) New-WinSimServiceObject (Find-WinSimService $system $name) $now }; $ctx.Items.Add($o) }
                    continue
                }
                $null = Wait-WinSimServiceStatus $PSCmdlet $ctx $name 1 3 'stop' ([bool]$PassThru)
            }
        }
    }
}
