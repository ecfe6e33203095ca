@{
    RootModule        = 'WinSim.psm1'
    ModuleVersion     = '0.1.0'
    GUID              = '6f0b8f5e-3c1a-4d52-9a57-2f1d7c7e0a11'
    Author            = 'csi-proxy for TypeScript'
    Description       = 'A simulated Windows host: the Windows Storage cmdlets on PowerShell 7 for Linux, backed by CSI_WINSIM_DIR.'
    PowerShellVersion = '7.0'
    FunctionsToExport = @(
        'Get-Disk', 'Initialize-Disk', 'Set-Disk', 'Update-HostStorageCache',
        'Get-Partition', 'New-Partition', 'Resize-Partition', 'Get-PartitionSupportedSize',
        'Add-PartitionAccessPath', 'Remove-PartitionAccessPath',
        'Get-Volume', 'Format-Volume', 'Write-VolumeCache', 'Get-Item',
        # SmbShare
        'Get-SmbGlobalMapping', 'New-SmbGlobalMapping', 'Remove-SmbGlobalMapping', 'Test-Path',
        # iSCSI
        'New-IscsiTargetPortal', 'Get-IscsiTargetPortal', 'Remove-IscsiTargetPortal', 'Update-IscsiTargetPortal',
        'Get-IscsiTarget', 'Connect-IscsiTarget', 'Disconnect-IscsiTarget', 'Get-IscsiSession',
        'Register-IscsiSession', 'Unregister-IscsiSession', 'Get-IscsiConnection', 'Set-IscsiChapSecret',
        # CimCmdlets and services (Invoke-CimMethod: only MSFT_SmbGlobalMapping.Create, module/smb)
        'Get-CimInstance', 'Invoke-CimMethod', 'Get-Service', 'Start-Service', 'Stop-Service'
    )
    CmdletsToExport   = @()
    VariablesToExport = @()
    AliasesToExport   = @()
}
