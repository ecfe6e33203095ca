# Service cmdlet errors: ServiceCommandException records with the real ids, categories and texts
# (windows-cmdlets.md §6, §8). The writer appends the command class to the id.
function New-WinSimServiceError([string]$ErrorId, [string]$Message, [string]$Category, $Target, [string]$ServiceName, [Exception]$Inner = $null) {
    $exception = [Microsoft.PowerShell.Commands.ServiceCommandException]::new($Message, $Inner)
    $exception.ServiceName = $ServiceName
    $record = [System.Management.Automation.ErrorRecord]::new($exception, $ErrorId, [System.Management.Automation.ErrorCategory]$Category, $Target)
    if ($Target -isnot [string]) {
        # A real ServiceController prints as its type name in CategoryInfo.
        $record.CategoryInfo.TargetName = 'System.ServiceProcess.ServiceController'
        $record.CategoryInfo.TargetType = 'ServiceController'
    }
    return $record
}

function New-WinSimServiceNotFound([string]$Name, [switch]$ByDisplayName) {
    if ($ByDisplayName) {
        return (New-WinSimServiceError 'NoServiceFoundForGivenDisplayName' "Cannot find any service with display name '$Name'." 'ObjectNotFound' $Name $Name)
    }
    return (New-WinSimServiceError 'NoServiceFoundForGivenName' "Cannot find any service with service name '$Name'." 'ObjectNotFound' $Name $Name)
}

# The InvalidOperationException ServiceController.Start()/Stop() throws, with the SCM's Win32 error inside.
function New-WinSimControllerException([string]$Verb, [string]$Name, [string]$ScmResult) {
    $bar = $ScmResult.IndexOf('|')
    $win32 = [System.ComponentModel.Win32Exception]::new([int]$ScmResult.Substring(0, $bar), $ScmResult.Substring($bar + 1))
    $text = if ($Verb -eq 'start') { "Cannot start service $Name on computer '.'." } else { "Cannot stop $Name service on computer '.'." }
    return [System.InvalidOperationException]::new($text, $win32)
}

function Format-WinSimServiceLabel($Service) { return "$($Service.displayName) ($($Service.name))" }
