/**
 * The PowerShell side of the transport: one constant script, shared by spawn and session mode.
 *
 * It reads base64 (UTF-8 JSON) lines from stdin and answers with `<tag> <id> <base64 JSON>`
 * lines on stdout, so the channel is plain ASCII whatever the console code page is. It must stay
 * valid Windows PowerShell 5.1: no `??`, `?.`, ternaries, pipeline chains or `-AsArray`.
 */
export const hostScript = String.raw`
Set-StrictMode -Off
$csiUtf8 = New-Object System.Text.UTF8Encoding $false
$csiInvariant = [System.Globalization.CultureInfo]::InvariantCulture
# Windows PowerShell adds a Count member to arrays, which ConvertTo-Json then emits as {"value","Count"}.
if ($PSVersionTable.PSVersion.Major -lt 6) { Remove-TypeData System.Array -ErrorAction SilentlyContinue }

function Reset-CsiPreference {
    # Global scope: functions of script modules do not see preferences set in a child scope.
    $global:ErrorActionPreference = 'Stop'
    $global:ProgressPreference = 'SilentlyContinue'
    $global:WarningPreference = 'SilentlyContinue'
    $global:VerbosePreference = 'SilentlyContinue'
    $global:InformationPreference = 'SilentlyContinue'
    $global:DebugPreference = 'SilentlyContinue'
    $global:ConfirmPreference = 'None'
}

function Read-CsiFrame {
    $line = [Console]::In.ReadLine()
    if ($null -eq $line) { return $null }
    $json = $csiUtf8.GetString([Convert]::FromBase64String($line.Trim()))
    return (ConvertFrom-Json -InputObject $json)
}

function Write-CsiFrame([string]$Id, $Body) {
    $json = ConvertTo-Json -InputObject $Body -Depth $csiDepth -Compress
    [Console]::Out.WriteLine($csiTag + ' ' + $Id + ' ' + [Convert]::ToBase64String($csiUtf8.GetBytes($json)))
    [Console]::Out.Flush()
}

# Values travel tagged so that ConvertFrom-Json never sees caller strings (it turns date-like ones into DateTime).
function ConvertFrom-CsiWire($Value) {
    if ($null -eq $Value) { return $null }
    if ($Value -isnot [System.Management.Automation.PSCustomObject]) { return $Value }
    $props = $Value.PSObject.Properties
    $s = $props['s']
    if ($null -ne $s) { return $csiUtf8.GetString([Convert]::FromBase64String([string]$s.Value)) }
    $n = $props['n']
    if ($null -ne $n) { return [decimal]::Parse([string]$n.Value, $csiInvariant) }
    $a = $props['a']
    if ($null -ne $a) {
        $list = New-Object System.Collections.Generic.List[object]
        foreach ($item in @($a.Value)) { $list.Add((ConvertFrom-CsiWire $item)) }
        return , $list.ToArray()
    }
    $o = $props['o']
    if ($null -ne $o) {
        $map = [ordered]@{}
        foreach ($p in $o.Value.PSObject.Properties) { $map[$p.Name] = ConvertFrom-CsiWire $p.Value }
        return [pscustomobject]$map
    }
    throw 'Malformed parameter value on the wire.'
}

function ConvertTo-CsiErrorRecord($Record) {
    $ex = $Record.Exception
    $chain = New-Object System.Collections.Generic.List[string]
    $native = $null
    $status = $null
    $messageId = $null
    $e = $ex
    while ($null -ne $e) {
        $chain.Add($e.GetType().FullName)
        if ($null -eq $native) {
            $nativeProp = $e.PSObject.Properties['NativeErrorCode']
            if ($null -ne $nativeProp -and $null -ne $nativeProp.Value) {
                $native = [string]$nativeProp.Value
                $statusProp = $e.PSObject.Properties['StatusCode']
                if ($null -ne $statusProp -and $null -ne $statusProp.Value) { $status = [int64]$statusProp.Value }
                $idProp = $e.PSObject.Properties['MessageId']
                if ($null -ne $idProp -and $null -ne $idProp.Value) { $messageId = [string]$idProp.Value }
            }
        }
        $e = $e.InnerException
    }
    $info = $Record.CategoryInfo
    $details = $null
    if ($null -ne $Record.ErrorDetails) { $details = [string]$Record.ErrorDetails.Message }
    return [ordered]@{
        message = [string]$ex.Message
        fullyQualifiedErrorId = [string]$Record.FullyQualifiedErrorId
        category = [string]$info.Category
        reason = [string]$info.Reason
        targetName = [string]$info.TargetName
        targetType = [string]$info.TargetType
        exceptionType = $ex.GetType().FullName
        exceptionChain = $chain.ToArray()
        hResult = $ex.HResult
        nativeErrorCode = $native
        statusCode = $status
        messageId = $messageId
        errorDetails = $details
        scriptStackTrace = [string]$Record.ScriptStackTrace
    }
}

function New-CsiFailure([string]$ErrorId, [string]$Message) {
    return [ordered]@{
        message = $Message
        fullyQualifiedErrorId = $ErrorId
        category = 'InvalidArgument'
        reason = 'CsiProxyHost'
        targetName = ''
        targetType = ''
        exceptionType = 'CsiProxy.HostError'
        exceptionChain = @('CsiProxy.HostError')
        hResult = 0
        nativeErrorCode = $null
        statusCode = $null
        messageId = $null
        errorDetails = $null
        scriptStackTrace = ''
    }
}

function Invoke-CsiRequest($Request) {
    $key = [string]$Request.hash
    $block = $csiScripts[$key]
    if ($null -eq $block) {
        if ($null -eq $Request.text) { return @{ ok = $false; error = (New-CsiFailure 'CsiProxy.UnknownScript' 'The script was not sent to this process.') } }
        $block = [scriptblock]::Create([string]$Request.text)
        $declared = @{}
        if ($null -ne $block.Ast.ParamBlock) {
            foreach ($p in $block.Ast.ParamBlock.Parameters) { $declared[$p.Name.VariablePath.UserPath] = $true }
        }
        $csiScripts[$key] = $block
        $csiDeclared[$key] = $declared
    }
    $declared = $csiDeclared[$key]
    $splat = @{}
    if ($null -ne $Request.params) {
        foreach ($p in $Request.params.PSObject.Properties) {
            if (-not $declared.ContainsKey($p.Name)) {
                return @{ ok = $false; error = (New-CsiFailure 'CsiProxy.UnknownParameter' ('The script declares no parameter named ''' + $p.Name + '''.')) }
            }
            $splat[$p.Name] = ConvertFrom-CsiWire $p.Value
        }
    }
    $out = New-Object System.Collections.Generic.List[object]
    Reset-CsiPreference
    & $block @splat 3>$null 4>$null 5>$null 6>$null | ForEach-Object { $out.Add($_) }
    if ($out.Count -eq 1) { return @{ ok = $true; count = 1; value = $out[0] } }
    return @{ ok = $true; count = $out.Count; value = $out.ToArray() }
}

$csiScripts = @{}
$csiDeclared = @{}
$csiTag = 'csi'
$csiDepth = 24
try {
    Reset-CsiPreference
    $init = Read-CsiFrame
    $csiTag = [string]$init.tag
    $csiDepth = [int]$init.depth + 1
    foreach ($module in @($init.modules)) {
        if ($null -ne $module) { Import-Module -Name (ConvertFrom-CsiWire $module) -Global -DisableNameChecking 3>$null 4>$null 5>$null 6>$null }
    }
    Write-CsiFrame '0' @{ ok = $true }
} catch {
    Write-CsiFrame '0' @{ ok = $false; error = (ConvertTo-CsiErrorRecord $_) }
    exit 1
}

while ($true) {
    $request = $null
    try {
        $request = Read-CsiFrame
        if ($null -eq $request) { break }
        $response = Invoke-CsiRequest $request
    } catch {
        $response = @{ ok = $false; error = (ConvertTo-CsiErrorRecord $_) }
    }
    $id = '?'
    if ($null -ne $request) { $id = [string]$request.id }
    try {
        Write-CsiFrame $id $response
    } catch {
        Write-CsiFrame $id @{ ok = $false; error = (New-CsiFailure 'CsiProxy.SerializationFailed' ('The result could not be converted to JSON: ' + $_.Exception.Message)) }
    }
}
exit 0
`;

/** The one-line `-Command` bootstrap: it reads the host script (base64 UTF-8) from the first stdin line. */
export const bootstrapCommand =
  "$s=[Console]::In.ReadLine();& ([scriptblock]::Create([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($s))))";

/** The exact PowerShell the transport runs, exported so it can be audited and statically checked. */
export const transportScripts = {
  /** The host script each process reads from its first stdin line and runs requests with. */
  host: hostScript,
  /** The one-line `-Command` that reads and starts the host script. */
  bootstrap: bootstrapCommand,
} as const;
