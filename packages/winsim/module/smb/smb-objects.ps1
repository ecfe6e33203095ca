# MSFT_SmbGlobalMapping as Get-SmbGlobalMapping returns it: raw Status on CimInstanceProperties, its name as Status.
function New-WinSimSmbMappingObject($Mapping) {
    $status = [uint32]$Mapping.status
    $name = $script:WinSimSmbStatusNames[[int]$status]
    if ($null -eq $name) { $name = [string]$status }
    $raw = [ordered]@{
        LocalPath        = [string](Get-WinSimField $Mapping 'localPath' '')
        RemotePath       = [string]$Mapping.remotePath
        RequireIntegrity = [bool](Get-WinSimField $Mapping 'requireIntegrity' $false)
        RequirePrivacy   = [bool](Get-WinSimField $Mapping 'requirePrivacy' $false)
        Status           = $status
        UseWriteThrough  = [bool](Get-WinSimField $Mapping 'useWriteThrough' $false)
        PSComputerName   = $null
    }
    $base = [CsiProxy.WinSim.SimCimInstance]::new('MSFT_SmbGlobalMapping')
    foreach ($key in $raw.Keys) { $base.Set($key, $raw[$key]) }
    $object = [psobject]::new($base)
    $object.PSObject.Properties.Add([psnoteproperty]::new('Status', $name))
    foreach ($key in $raw.Keys) {
        if ($key -ne 'Status') { $object.PSObject.Properties.Add([psnoteproperty]::new($key, $raw[$key])) }
    }
    $names = $object.PSObject.TypeNames
    $names.Clear()
    $prefix = 'Microsoft.Management.Infrastructure.CimInstance#'
    $names.Add("${prefix}ROOT/Microsoft/Windows/SMB/MSFT_SmbGlobalMapping")
    $names.Add("${prefix}MSFT_SmbGlobalMapping")
    $names.Add('Microsoft.Management.Infrastructure.CimInstance')
    $names.Add('System.Object')
    return $object
}

# Identifies a piped mapping in the call log and for fault matching.
function Get-WinSimSmbTarget($InputObject) {
    $target = [ordered]@{}
    if ($null -ne $InputObject -and $InputObject.PSObject.TypeNames -contains 'Microsoft.Management.Infrastructure.CimInstance#MSFT_SmbGlobalMapping') {
        $target['RemotePath'] = [string]$InputObject.RemotePath
        $target['LocalPath'] = [string]$InputObject.LocalPath
    }
    return $target
}
