# STORAGE_DEVICE_ID_DESCRIPTOR as Windows returns it: little-endian, identifiers 8-byte aligned (x64).
function ConvertTo-WinSimDeviceIdDescriptor($DeviceIds) {
    $ids = @($DeviceIds | Where-Object { $null -ne $_ })
    $stream = [System.IO.MemoryStream]::new()
    $writer = [System.IO.BinaryWriter]::new($stream)
    $writer.Write([uint32]16)
    $writer.Write([uint32]0)
    $writer.Write([uint32]$ids.Count)
    foreach ($id in $ids) {
        $bytes = [Convert]::FromHexString([string]$id.hex)
        $next = [int]([math]::Ceiling((16 + $bytes.Length) / 8) * 8)
        $writer.Write([uint32]$id.codeSet)
        $writer.Write([uint32]$id.type)
        $writer.Write([uint16]$bytes.Length)
        $writer.Write([uint16]$next)
        $writer.Write([uint32]$id.association)
        $writer.Write($bytes)
        for ($pad = 16 + $bytes.Length; $pad -lt $next; $pad++) { $writer.Write([byte]0) }
    }
    $writer.Flush()
    $descriptor = $stream.ToArray()
    [BitConverter]::GetBytes([uint32]$descriptor.Length).CopyTo($descriptor, 4)
    return , $descriptor
}

function Resolve-WinSimDevicePath([string]$DevicePath) {
    $lock = Enter-WinSimLock
    try { $state = Read-WinSimState } finally { Exit-WinSimLock $lock }
    foreach ($disk in $state.disks) {
        if ([string]::Equals([string]$disk.path, $DevicePath, [StringComparison]::OrdinalIgnoreCase)) {
            $err = [string](Get-WinSimField $disk 'deviceIdError' '')
            $descriptor = ConvertTo-WinSimDeviceIdDescriptor (Get-WinSimField $disk 'deviceIds' @())
            return , @([uint32]$disk.number, $err, $descriptor)
        }
    }
    return $null
}

function Register-WinSimStorageIoctl {
    [CsiProxy.StorageIoctl]::Resolver = [Func[string, object[]]] { param([string]$DevicePath) Resolve-WinSimDevicePath $DevicePath }
}
