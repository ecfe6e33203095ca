Set-StrictMode -Version 3.0

# Private helpers first (types, state, faults, objects), then one folder per simulated Windows module.
foreach ($folder in @('private', 'storage', 'smb', 'iscsi', 'system')) {
    $path = Join-Path $PSScriptRoot $folder
    if (-not (Test-Path -LiteralPath $path)) { continue }
    foreach ($file in (Get-ChildItem -LiteralPath $path -Filter '*.ps1' | Sort-Object Name)) {
        . $file.FullName
    }
}

Register-WinSimStorageIoctl
