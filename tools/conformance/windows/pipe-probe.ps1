# Opens a named pipe as a new local user that is not an administrator, and prints what happened
# as one JSON line: {"user":"...","outcome":"refused"|"connected"|"error","detail":"..."}. The
# user is made for this probe and removed afterwards. Run by packages/server/test-windows (from
# .github/workflows/windows.yml, server-pipes job) on a disposable runner. '.\user' names a
# local account for CreateProcessWithLogonW. Start-Process
# -Credential uses the Secondary Logon service (seclogon), started on demand.
# Windows PowerShell 5.1 syntax only.
[CmdletBinding()]
param(
    [Parameter(Mandatory = $true)][string]$PipeName,
    [Parameter(Mandatory = $true)][string]$Node,
    # A folder the new user can read (the caller makes it under C:\Users\Public).
    [Parameter(Mandatory = $true)][string]$WorkDir
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
if ($PipeName -notmatch '^csi-proxy-[a-z0-9-]{1,40}$') { throw ('PipeName must be csi-proxy-<group>-<version>, got: ' + $PipeName) }
if (-not (Test-Path -LiteralPath $Node -PathType Leaf)) { throw ('No node executable at ' + $Node) }

$user = 'csiprobe' + (Get-Random -Minimum 10000 -Maximum 99999)
# A random password of letters, digits and symbols meets the default complexity rules.
$chars = [char[]]'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%+'
$plain = 'Aa1!' + (-join (1..20 | ForEach-Object { $chars[(Get-Random -Maximum $chars.Length)] }))
$secure = ConvertTo-SecureString -String $plain -AsPlainText -Force
$work = Join-Path $WorkDir ('csi-pipe-probe-' + $user)
New-Item -ItemType Directory -Path $work -Force | Out-Null
try {
    New-LocalUser -Name $user -Password $secure -AccountNeverExpires -PasswordNeverExpires -Description 'csi-proxy pipe probe' | Out-Null
    # New-LocalUser may already have made it a member of Users; it must not be an administrator.
    $inGroup = { param($group) @(Get-LocalGroupMember -Name $group | Where-Object { $_.Name -like ('*\' + $user) }).Count -gt 0 }
    if (-not (& $inGroup 'Users')) { Add-LocalGroupMember -Name 'Users' -Member $user }
    if (& $inGroup 'Administrators') { throw ($user + ' is an administrator; the probe would prove nothing') }
    # The probe connects to the pipe: exit 0 refused (EPERM/EACCES), 1 connected, 2 anything else.
    $probeFile = Join-Path $work 'probe.js'
    $lines = @(
        'const net = require("net");',
        'const s = net.connect(process.argv[2]);',
        's.on("connect", () => { console.log("connected"); s.destroy(); process.exitCode = 1; });',
        's.on("error", (e) => { console.log(e.code); process.exitCode = e.code === "EPERM" || e.code === "EACCES" ? 0 : 2; });'
    )
    Set-Content -LiteralPath $probeFile -Value $lines -Encoding Ascii
    $pipe = '\\.\pipe\' + $PipeName
    $out = Join-Path $work 'out.txt'
    $err = Join-Path $work 'err.txt'
    $cred = New-Object System.Management.Automation.PSCredential -ArgumentList ('.\' + $user), $secure
    # Start-Process joins its arguments with spaces: neither path has one.
    $process = Start-Process -FilePath $Node -ArgumentList @($probeFile, $pipe) -Credential $cred `
        -WorkingDirectory $work -RedirectStandardOutput $out -RedirectStandardError $err `
        -NoNewWindow -Wait -PassThru
    $said = ''
    if (Test-Path -LiteralPath $out) { $said = (Get-Content -LiteralPath $out -Raw) }
    if (Test-Path -LiteralPath $err) { $said = $said + (Get-Content -LiteralPath $err -Raw) }
    $outcome = 'error'
    if ($process.ExitCode -eq 0) { $outcome = 'refused' }
    if ($process.ExitCode -eq 1) { $outcome = 'connected' }
    $result = New-Object psobject -Property @{ user = $user; outcome = $outcome; detail = ([string]$said).Trim() }
    Write-Output ($result | ConvertTo-Json -Compress)
}
finally {
    Remove-LocalUser -Name $user -ErrorAction SilentlyContinue
    Remove-Item -LiteralPath $work -Recurse -Force -ErrorAction SilentlyContinue
}
