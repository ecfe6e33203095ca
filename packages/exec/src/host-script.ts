/**
 * The PowerShell side of the transport: one constant script, shared by spawn and session mode.
 *
 * The first stdin line is the init frame (base64 of UTF-8 JSON). Each later line is a request,
 * space-separated: `<id> <hash> <text|-> <values|-> [<name> <string>]...`, where text is the
 * script's text (sent once per process), values the base64 JSON of every parameter that is not a
 * string, and each pair a string parameter as base64 UTF-8. Answers are `<tag> <id> r <count>
 * <base64 JSON|->` or `<tag> <id> e <base64 JSON error record>`, so the channel is plain ASCII
 * whatever the console code page is.
 *
 * The request loop is written inline, without helper functions or the pipeline, and string
 * parameters skip ConvertFrom-Json: every PowerShell function call, cmdlet and pipeline costs
 * tens of microseconds, which a call would pay on top of its script (BENCHMARKS.md). It must
 * stay valid Windows PowerShell 5.1: no `??`, `?.`, ternaries, pipeline chains or `-AsArray`.
 */
export const hostScript = String.raw`
Set-StrictMode -Off
$csiUtf8 = New-Object System.Text.UTF8Encoding $false
$csiInvariant = [System.Globalization.CultureInfo]::InvariantCulture
# Windows PowerShell adds a Count member to arrays, which ConvertTo-Json then emits as {"value","Count"}.
if ($PSVersionTable.PSVersion.Major -lt 6) { Remove-TypeData System.Array -ErrorAction SilentlyContinue }

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

$csiScripts = @{}
$csiDeclared = @{}
$csiTag = 'csi'
$csiDepth = 24
$csiReady = $false
$csiReader = [Console]::In
$csiWriter = [Console]::Out
$csiSpace = [char[]]@(' ')
$csiStop = [System.Management.Automation.ActionPreference]::Stop
$csiSilent = [System.Management.Automation.ActionPreference]::SilentlyContinue
$csiConfirmNone = [System.Management.Automation.ConfirmImpact]::None
# JSON is read by the method behind ConvertFrom-Json, not the cmdlet: module logging records every cmdlet's
# parameter values (ParameterBinderBase), and these carry the call's values. Its error comes back in this variable.
$csiJsonError = $null
while ($true) {
    $csiId = '?'
    $csiRecord = $null
    $csiOut = $null
    try {
        $csiLine = $csiReader.ReadLine()
        if ($null -eq $csiLine) { break }
        # Every call starts from these, whatever the previous one set globally (enum values: no conversion per call).
        $global:ErrorActionPreference = $csiStop
        $global:ProgressPreference = $csiSilent
        $global:WarningPreference = $csiSilent
        $global:VerbosePreference = $csiSilent
        $global:InformationPreference = $csiSilent
        $global:DebugPreference = $csiSilent
        $global:ConfirmPreference = $csiConfirmNone
        if (-not $csiReady) {
            $csiId = '0'
            $csiInit = [Microsoft.PowerShell.Commands.JsonObject]::ConvertFromJson($csiUtf8.GetString([Convert]::FromBase64String($csiLine.Trim())), [ref]$csiJsonError)
            if ($null -ne $csiJsonError) { throw $csiJsonError }
            $csiTag = [string]$csiInit.tag
            $csiDepth = [int]$csiInit.depth
            foreach ($csiModule in @($csiInit.modules)) {
                if ($null -ne $csiModule) { Import-Module -Name (ConvertFrom-CsiWire $csiModule) -Global -DisableNameChecking 3>$null 4>$null 5>$null 6>$null }
            }
            $csiReady = $true
            $csiOut = @()
        } else {
            $csiFields = $csiLine.Split($csiSpace)
            $csiId = $csiFields[0]
            $csiKey = $csiFields[1]
            $csiBlock = $csiScripts[$csiKey]
            if ($null -eq $csiBlock) {
                if ($csiFields[2] -eq '-') {
                    $csiRecord = New-CsiFailure 'CsiProxy.UnknownScript' 'The script was not sent to this process.'
                } else {
                    $csiBlock = [scriptblock]::Create($csiUtf8.GetString([Convert]::FromBase64String($csiFields[2])))
                    $csiNames = @{}
                    if ($null -ne $csiBlock.Ast.ParamBlock) {
                        foreach ($csiParam in $csiBlock.Ast.ParamBlock.Parameters) { $csiNames[$csiParam.Name.VariablePath.UserPath] = $true }
                    }
                    $csiScripts[$csiKey] = $csiBlock
                    $csiDeclared[$csiKey] = $csiNames
                }
            }
            if ($null -eq $csiRecord) {
                $csiNames = $csiDeclared[$csiKey]
                $csiSplat = @{}
                if ($csiFields[3] -ne '-') {
                    $csiValues = [Microsoft.PowerShell.Commands.JsonObject]::ConvertFromJson($csiUtf8.GetString([Convert]::FromBase64String($csiFields[3])), [ref]$csiJsonError)
                    if ($null -ne $csiJsonError) { throw $csiJsonError }
                    foreach ($csiParam in $csiValues.PSObject.Properties) { $csiSplat[$csiParam.Name] = ConvertFrom-CsiWire $csiParam.Value }
                }
                for ($csiI = 4; $csiI -lt $csiFields.Length; $csiI += 2) { $csiSplat[$csiFields[$csiI]] = $csiUtf8.GetString([Convert]::FromBase64String($csiFields[$csiI + 1])) }
                # get_Keys(): for a parameter named Keys, $csiSplat.Keys would be that parameter's value;
                # .PSBase.Keys is as safe but builds a member set per call (about 50 us a call, BENCHMARKS.md).
                foreach ($csiName in $csiSplat.get_Keys()) {
                    if (-not $csiNames.ContainsKey($csiName)) {
                        $csiRecord = New-CsiFailure 'CsiProxy.UnknownParameter' ('The script declares no parameter named ''' + $csiName + '''.')
                        break
                    }
                }
            }
            # Host and information records (Write-Host) are dropped: a -NoNewline one would run into the answer's line.
            # Warning, verbose and debug records are silenced by the preferences above; one a script forces (-Verbose)
            # reaches stdout as a whole line, which the reader sets aside as noise. Redirecting those per call cost 10%.
            if ($null -eq $csiRecord) {
                # Add() takes each object as a .NET argument, which drops the wrapper PowerShell keeps around output and the
                # members it adds (a FileInfo's PSDrive and PSProvider): ConvertTo-Json then sees the object itself.
                $csiOut = [System.Collections.Generic.List[object]]::new()
                foreach ($csiItem in @(& $csiBlock @csiSplat 6>$null)) { $csiOut.Add($csiItem) }
            }
        }
    } catch {
        $csiRecord = ConvertTo-CsiErrorRecord $_
    }
    if ($null -eq $csiRecord) {
        try {
            # A lone $null is answered as null here: Windows PowerShell 5.1's ConvertTo-Json writes nothing for it.
            if ($csiOut.Count -eq 0) { $csiReply = 'r 0 -' }
            elseif ($csiOut.Count -eq 1 -and $null -eq $csiOut[0]) { $csiReply = 'r 1 bnVsbA==' }
            elseif ($csiOut.Count -eq 1) { $csiReply = 'r 1 ' + [Convert]::ToBase64String($csiUtf8.GetBytes((ConvertTo-Json -InputObject $csiOut[0] -Depth $csiDepth -Compress))) }
            else { $csiReply = 'r ' + $csiOut.Count + ' ' + [Convert]::ToBase64String($csiUtf8.GetBytes((ConvertTo-Json -InputObject $csiOut.ToArray() -Depth $csiDepth -Compress))) }
        } catch {
            $csiRecord = New-CsiFailure 'CsiProxy.SerializationFailed' ('The result could not be converted to JSON: ' + $_.Exception.Message)
        }
    }
    if ($null -ne $csiRecord) { $csiReply = 'e ' + [Convert]::ToBase64String($csiUtf8.GetBytes((ConvertTo-Json -InputObject $csiRecord -Depth 4 -Compress))) }
    $csiWriter.WriteLine($csiTag + ' ' + $csiId + ' ' + $csiReply)
    $csiWriter.Flush()
    if (-not $csiReady) { exit 1 }
}
exit 0
`;

/** The line the bootstrap prints, before {@link languageModeExitCode}, when PowerShell is not in FullLanguage mode. */
export const languageModeMarker = "CsiProxy.LanguageMode";

/** The exit code of a bootstrap that refused to start outside FullLanguage mode. */
export const languageModeExitCode = 86;

/**
 * The one-line `-Command` bootstrap: it reads the host script (base64 UTF-8) from the first stdin
 * line. It first checks the language mode: under an application control policy (WDAC, AppLocker)
 * `-Command` text runs in ConstrainedLanguage (about_Language_Modes), where the method calls
 * below fail; reading `LanguageMode` and `exit` are allowed there, so it says so and exits.
 */
export const bootstrapCommand =
  `if ($ExecutionContext.SessionState.LanguageMode -ne 'FullLanguage') { '${languageModeMarker} ' + $ExecutionContext.SessionState.LanguageMode; exit ${languageModeExitCode} };` +
  "$s=[Console]::In.ReadLine();& ([scriptblock]::Create([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($s))))";

/** The exact PowerShell the transport runs, exported so it can be audited and statically checked. */
export const transportScripts = {
  /** The host script each process reads from its first stdin line and runs requests with. */
  host: hostScript,
  /** The one-line `-Command` that reads and starts the host script. */
  bootstrap: bootstrapCommand,
} as const;
