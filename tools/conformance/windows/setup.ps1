# Creates what the conformance suite needs on a disposable Windows Server: blank virtual disks,
# a local SMB share with a local user, an iSCSI target (one-way and mutual CHAP) with a LUN each,
# and the iSCSI initiator service running. Every object is named csiconf<Tag>; teardown.ps1
# removes them. Run by src/windows-host.ts through @csi-proxy/exec, so every value (secrets
# included) arrives as a bound parameter, never as code. Windows PowerShell 5.1 syntax only:
# tools/script-check parses this file and holds every cmdlet and parameter to its table.
[CmdletBinding()]
param(
    [Parameter(Mandatory = $true)][string]$Root,
    [Parameter(Mandatory = $true)][string]$Tag,
    [Parameter(Mandatory = $true)][uint64]$DiskBytes,
    [Parameter(Mandatory = $true)][int]$DiskCount,
    [Parameter(Mandatory = $true)][uint64]$LunBytes,
    [Parameter(Mandatory = $true)][string]$SmbPassword,
    [Parameter(Mandatory = $true)][string]$ChapSecret,
    [Parameter(Mandatory = $true)][string]$MutualTargetChapSecret,
    [Parameter(Mandatory = $true)][string]$MutualSecret,
    [Parameter(Mandatory = $true)][string]$Service
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
. (Join-Path $PSScriptRoot 'common.ps1')
Assert-ConformanceNames -Root $Root -Tag $Tag
$name = 'csiconf' + $Tag
$computer = [System.Environment]::MachineName

foreach ($folder in @($Root, (Join-Path $Root 'disks'), (Join-Path $Root 'luns'), (Join-Path $Root 'share\pvc-1'))) {
    New-Item -ItemType Directory -Path $folder -Force | Out-Null
}

# Blank disks: VHDX files made by diskpart and attached with Mount-DiskImage. Both are part of
# every Windows Server (the VHD miniport, vhdmp), so no Hyper-V role or nested virtualisation is
# needed, unlike New-VHD/Mount-VHD (Hyper-V module, which needs the Hyper-V role's services).
$blankDisks = New-Object System.Collections.Generic.List[object]
for ($i = 1; $i -le $DiskCount; $i++) {
    $path = Join-Path $Root ('disks\' + $name + '-' + $i + '.vhdx')
    $megabytes = [uint64][math]::Ceiling($DiskBytes / 1MB)
    Invoke-ConformanceDiskpart -Root $Root -Lines @(('create vdisk file="' + $path + '" maximum=' + $megabytes + ' type=expandable'))
    Mount-DiskImage -ImagePath $path -Access ReadWrite -NoDriveLetter | Out-Null
    $blankDisks.Add([pscustomobject]@{ path = $path; number = (Wait-ConformanceImageDisk -ImagePath $path) })
}

# SMB: a local user and a share it may change, reached as \\<computer>\<share> (upstream's
# integration tests map a local share the same way).
$securePassword = ConvertTo-SecureString -String $SmbPassword -AsPlainText -Force
New-LocalUser -Name $name -Password $securePassword -AccountNeverExpires -PasswordNeverExpires -Description 'csi-proxy conformance (disposable)' | Out-Null
New-SmbShare -Name $name -Path (Join-Path $Root 'share') -FullAccess ($computer + '\' + $name) -EncryptData $true | Out-Null

# iSCSI Target Server and initiator; the workflow did this already in provision.ps1 (then both
# come back as "was there": teardown leaves them), a VM you run the suite on may not have.
$iscsiBefore = Initialize-ConformanceIscsi

function New-ConformanceTarget([string]$Suffix, [string]$Secret, [string]$ReverseSecret) {
    $targetName = $name + $Suffix
    $lunPath = Join-Path $Root ('luns\' + $targetName + '.vhdx')
    New-IscsiVirtualDisk -Path $lunPath -SizeBytes $LunBytes | Out-Null
    New-IscsiServerTarget -TargetName $targetName -InitiatorIds @('IQN:*') | Out-Null
    Add-IscsiVirtualDiskTargetMapping -TargetName $targetName -Path $lunPath
    $chap = New-Object System.Management.Automation.PSCredential -ArgumentList @($targetName, (ConvertTo-SecureString -String $Secret -AsPlainText -Force))
    if ($ReverseSecret -eq '') {
        Set-IscsiServerTarget -TargetName $targetName -EnableChap $true -Chap $chap
    } else {
        # The Microsoft initiator ignores the reverse CHAP user name; only the secret must match.
        $reverse = New-Object System.Management.Automation.PSCredential -ArgumentList @($targetName, (ConvertTo-SecureString -String $ReverseSecret -AsPlainText -Force))
        Set-IscsiServerTarget -TargetName $targetName -EnableChap $true -Chap $chap -EnableReverseChap $true -ReverseChap $reverse
    }
    return [pscustomobject]@{
        iqn = [string](Get-IscsiServerTarget -TargetName $targetName).TargetIqn
        chapUsername = $targetName
        lunPath = $lunPath
    }
}
$oneWay = New-ConformanceTarget -Suffix 'a' -Secret $ChapSecret -ReverseSecret ''
$mutual = New-ConformanceTarget -Suffix 'b' -Secret $MutualTargetChapSecret -ReverseSecret $MutualSecret

# The service the suite stops and starts must exist and run.
$serviceObject = Get-Service -Name $Service
if ($serviceObject.Status -ne 'Running') { Start-Service -Name $Service }

[pscustomobject]@{
    computerName = $computer
    blankDisks = $blankDisks.ToArray()
    smbShare = $name
    smbUser = $computer + '\' + $name
    oneWay = $oneWay
    mutual = $mutual
    featureWasInstalled = $iscsiBefore.featureWasInstalled
    initiatorWasRunning = $iscsiBefore.initiatorWasRunning
}
