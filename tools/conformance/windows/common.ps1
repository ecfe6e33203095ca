# Helpers dot-sourced by setup.ps1, grow-disk.ps1 and teardown.ps1. Windows PowerShell 5.1 syntax.

# Root and Tag end up in diskpart scripts and object names: allow only plain characters.
function Assert-ConformanceNames([string]$Root, [string]$Tag) {
    if ($Root -notmatch '^[A-Za-z]:\\[A-Za-z0-9_.\\-]+$') { throw ('Root must be a plain absolute folder path, got: ' + $Root) }
    if ($Tag -notmatch '^[a-z0-9]{0,8}$') { throw 'Tag must be at most 8 lower-case letters or digits.' }
}

# Runs diskpart with a script file (diskpart reads commands only from a file or the console).
# https://learn.microsoft.com/windows-server/administration/windows-commands/diskpart
function Invoke-ConformanceDiskpart([string]$Root, [string[]]$Lines) {
    $scriptFile = Join-Path $Root ('diskpart-' + [guid]::NewGuid().ToString('n') + '.txt')
    Set-Content -LiteralPath $scriptFile -Value $Lines -Encoding Ascii
    try {
        $output = & diskpart.exe /s $scriptFile
        if ($LASTEXITCODE -ne 0) { throw ('diskpart failed with exit code ' + $LASTEXITCODE + ': ' + ($output -join ' ')) }
    } finally {
        Remove-Item -LiteralPath $scriptFile -Force -ErrorAction SilentlyContinue
    }
}
