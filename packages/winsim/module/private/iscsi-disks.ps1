# A login brings the target's LUNs into the Storage state as disks; the last logout takes them out
# again, with their partitions and volumes, so the next login shows the same data (state.json keeps both).
function Get-WinSimFreeDiskNumber($State) {
    $taken = @($State.disks | ForEach-Object { [int64]$_.number })
    $n = 0
    while ($taken -contains $n) { $n++ }
    return $n
}

function Set-WinSimLunDiskNumber($Lun, $Number) {
    $Lun.disk.number = $Number
    foreach ($p in @($Lun.partitions)) { if ($null -ne $p) { $p.diskNumber = $Number } }
}

function Add-WinSimLunDisks($State, $Iscsi, $Target, $Session) {
    $attached = [System.Collections.Generic.List[object]]::new()
    foreach ($lun in @($Target.luns | Where-Object { $null -ne $_ } | Sort-Object { [int]$_.lun })) {
        # An MPIO disk: a second session to the same LUN shares its disk.
        $holder = @($Iscsi.sessions | Where-Object { $s = $_; @($s.disks | Where-Object { $null -ne $_ -and (Test-WinSimSameText $s.targetNodeAddress $Target.iqn) -and [int]$_.lun -eq [int]$lun.lun }).Count -gt 0 })
        $number = $null
        if ($holder.Count -gt 0) {
            $number = [int64](@($holder[0].disks | Where-Object { [int]$_.lun -eq [int]$lun.lun })[0].diskNumber)
        } else {
            $number = Get-WinSimFreeDiskNumber $State
            Set-WinSimLunDiskNumber $lun $number
            $disk = $lun.disk
            Add-WinSimDefaults $disk $script:WinSimDefaults['disks']
            $State.disks.Add($disk)
            foreach ($p in @($lun.partitions | Where-Object { $null -ne $_ })) { Add-WinSimDefaults $p $script:WinSimDefaults['partitions']; $State.partitions.Add($p) }
            foreach ($v in @($lun.volumes | Where-Object { $null -ne $_ })) {
                Add-WinSimDefaults $v $script:WinSimDefaults['volumes']
                $State.volumes.Add($v)
                [void][System.IO.Directory]::CreateDirectory((Get-WinSimVolumeRoot ([string]$v.guid)))
            }
            $lun.disk = $null
            $lun.partitions = @()
            $lun.volumes = @()
        }
        $attached.Add([pscustomobject]@{ lun = [int]$lun.lun; diskNumber = $number })
    }
    $Session.disks = $attached.ToArray()
}

# Called after the session left $Iscsi.sessions: disks no other session holds go back to their LUNs.
function Remove-WinSimLunDisks($State, $Iscsi, $Session) {
    foreach ($entry in @($Session.disks | Where-Object { $null -ne $_ })) {
        $number = [int64]$entry.diskNumber
        $held = @($Iscsi.sessions | Where-Object { @($_.disks | Where-Object { $null -ne $_ -and [int64]$_.diskNumber -eq $number }).Count -gt 0 })
        if ($held.Count -gt 0) { continue }
        $disk = Get-WinSimDisk $State $number
        if ($null -eq $disk) { continue }
        $parts = @(Get-WinSimDiskPartitions $State $number)
        $guids = @($parts | ForEach-Object { Get-WinSimField $_ 'volume' } | Where-Object { $null -ne $_ })
        $vols = @($State.volumes | Where-Object { $guids -contains [string]$_.guid })
        [void]$State.disks.Remove($disk)
        foreach ($p in $parts) { [void]$State.partitions.Remove($p) }
        foreach ($v in $vols) { [void]$State.volumes.Remove($v) }
        $lun = Find-WinSimIscsiAttachedLun $Iscsi $Session.targetNodeAddress ([int]$entry.lun)
        if ($null -eq $lun) { continue }
        $lun.disk = $disk
        $lun.partitions = $parts
        $lun.volumes = $vols
        Set-WinSimLunDiskNumber $lun -1
    }
}

# The LUN whose disk is attached: the one at rest without its disk, on whichever server (one
# target may be served at several portals, and the disk came from the server of the first login).
function Find-WinSimIscsiAttachedLun($Iscsi, [string]$NodeAddress, [int]$Number) {
    foreach ($server in $Iscsi.servers) {
        $target = Find-WinSimIscsiServerTarget $server $NodeAddress
        if ($null -eq $target) { continue }
        foreach ($lun in @($target.luns)) {
            if ($null -ne $lun -and [int]$lun.lun -eq $Number -and $null -eq $lun.disk) { return $lun }
        }
    }
    return $null
}
