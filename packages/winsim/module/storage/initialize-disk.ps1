function Initialize-Disk {
    [CmdletBinding(DefaultParameterSetName = 'ByNumber', SupportsShouldProcess, ConfirmImpact = 'Medium')]
    [OutputType('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Disk')]
    param(
        [Parameter(ParameterSetName = 'ByNumber', Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
        [uint32[]]$Number,
        [Parameter(ParameterSetName = 'ByUniqueId', Mandatory, ValueFromPipelineByPropertyName)]
        [Alias('Id')]
        [string[]]$UniqueId,
        [Parameter(ParameterSetName = 'ByName', ValueFromPipelineByPropertyName)]
        [string[]]$FriendlyName,
        [Parameter(ParameterSetName = 'ByPath', Mandatory, ValueFromPipelineByPropertyName)]
        [string[]]$Path,
        [Parameter(ParameterSetName = 'ByVirtualDisk', ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_VirtualDisk')]
        [psobject]$VirtualDisk,
        [Parameter(ParameterSetName = 'InputObject (cdxml)', Mandatory, ValueFromPipeline)]
        [PSTypeName('Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Disk')]
        [object[]]$InputObject,
        [Microsoft.PowerShell.Cmdletization.GeneratedTypes.Disk.PartitionStyle]$PartitionStyle = 'GPT',
        [switch]$PassThru,
        [Alias('Session')][Microsoft.Management.Infrastructure.CimSession[]]$CimSession,
        [int]$ThrottleLimit,
        [switch]$AsJob
    )
    process {
        $bound = $PSBoundParameters
        Invoke-WinSimCommand $PSCmdlet $bound (Get-WinSimTarget @($InputObject)[0]) {
            param($ctx)
            # A virtual disk is the Storage Spaces disk carrying its friendly name, as Get-Disk -VirtualDisk finds it.
            $disks = if ($bound.ContainsKey('VirtualDisk')) { Select-WinSimAssociatedDisks $ctx.State $bound } else { Select-WinSimDisks $ctx $bound }
            foreach ($disk in $disks) {
                if (-not $PSCmdlet.ShouldProcess("Disk $($disk.number)", 'Initialize')) { continue }
                if ([int]$disk.partitionStyle -ne 0) { $ctx.Items.Add((New-WinSimStorageError 41001 'MSFT_Disk')); continue }
                if ([int]$PartitionStyle -eq 0) { $ctx.Items.Add((New-WinSimStorageError 5 'MSFT_Disk')); continue }
                # A LUN the storage side keeps read-only cannot be written (see Set-Disk).
                if (Test-WinSimDiskWriteProtected $disk) { $ctx.Items.Add((New-WinSimStorageError 41002 'MSFT_Disk')); continue }
                Initialize-WinSimDiskLayout $ctx.State $disk ([int]$PartitionStyle)
                $ctx.Changed = $true
                if ($PassThru) { $ctx.Items.Add((New-WinSimDiskObject $ctx.State $disk)) }
            }
        }
    }
}

# Initialising brings the disk online and writable (seen on Windows for a policy-offline RAW disk).
function Initialize-WinSimDiskLayout($State, $Disk, [int]$Style) {
    $Disk.partitionStyle = $Style
    $Disk.isOffline = $false
    $Disk.offlineReason = $null
    $Disk.isReadOnly = $false
    if ($Style -eq 2) {
        $Disk.guid = '{' + [guid]::NewGuid().ToString() + '}'
        $Disk.signature = $null
        $State.partitions.Add([pscustomobject][ordered]@{
            diskNumber = [uint32]$Disk.number; partitionNumber = 1; offset = 17408; size = 16759808
            gptType = $script:WinSimGptReserved; mbrType = $null; driveLetter = $null
            guid = '{' + [guid]::NewGuid().ToString() + '}'; accessPaths = @(); volume = $null
            isReadOnly = $false; isOffline = $false; isHidden = $false; isActive = $false
        })
    } else {
        $Disk.guid = $null
        $Disk.signature = [uint32](Get-Random -Minimum 16777216 -Maximum 2147483647)
    }
}
