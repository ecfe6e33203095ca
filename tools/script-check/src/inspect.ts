import { ps, type PowerShell } from "@csi-proxy/exec";

/** A reason a script would not run on Windows PowerShell 5.1, found by the parser alone. */
export interface SyntaxProblem {
  readonly kind: "parse-error" | "ps7-syntax" | "ps7-parameter" | "ps7-variable";
  readonly detail: string;
  readonly line: number;
}

/** A `-Name` on a command line, with its argument when that is a constant. */
export interface UsedParameter {
  readonly name: string;
  readonly value: string | null;
  readonly line: number;
}

/** A command a script calls by a constant name. */
export interface UsedCommand {
  readonly name: string;
  readonly parameters: readonly UsedParameter[];
  /** Whether `@splat` passes parameters the check cannot see (keys of a hashtable built in the script are listed as parameters). */
  readonly splatted: boolean;
  readonly line: number;
}

/** A place where a script reads the process environment. */
export interface EnvRead {
  readonly detail: string;
  readonly line: number;
}

/** What one parse of a script found. */
export interface ScriptInventory {
  readonly commands: readonly UsedCommand[];
  /** Functions the script itself defines: calls to them are not checked against the tables. */
  readonly functions: readonly string[];
  readonly envReads: readonly EnvRead[];
  readonly syntax: readonly SyntaxProblem[];
}

// One parse by pwsh's own parser; every finding comes from the AST and tokens, nothing is run.
const inspectScriptText = ps("tools.inspectScript")`
param([string]$Text)
$tokens = $null
$errors = $null
$ast = [System.Management.Automation.Language.Parser]::ParseInput($Text, [ref]$tokens, [ref]$errors)
$syntax = New-Object System.Collections.Generic.List[object]
foreach ($e in $errors) {
    $syntax.Add([pscustomobject]@{ kind = 'parse-error'; detail = $e.Message; line = $e.Extent.StartLineNumber })
}
$sevenOnlyTypes = @('TernaryExpressionAst', 'PipelineChainAst')
foreach ($n in $ast.FindAll({ param($n) $sevenOnlyTypes -contains $n.GetType().Name }, $true)) {
    $syntax.Add([pscustomobject]@{ kind = 'ps7-syntax'; detail = $n.GetType().Name + ': ' + $n.Extent.Text; line = $n.Extent.StartLineNumber })
}
foreach ($n in $ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.ScriptBlockAst] }, $true)) {
    $clean = $n.PSObject.Properties['CleanBlock']
    if ($null -ne $clean -and $null -ne $clean.Value) {
        $syntax.Add([pscustomobject]@{ kind = 'ps7-syntax'; detail = 'clean block'; line = $clean.Value.Extent.StartLineNumber })
    }
}
$sevenOnlyTokens = @('QuestionQuestion', 'QuestionQuestionEquals', 'QuestionDot', 'QuestionLBracket', 'AndAnd', 'OrOr')
foreach ($t in $tokens) {
    if ($sevenOnlyTokens -contains [string]$t.Kind) {
        $syntax.Add([pscustomobject]@{ kind = 'ps7-syntax'; detail = [string]$t.Kind + ': ' + $t.Text; line = $t.Extent.StartLineNumber })
    }
}
$sevenOnlyParameters = @('AsArray', 'Parallel', 'AsHashtable', 'EnumsAsStrings', 'EscapeHandling', 'NoEnumerate', 'DateKind')
$sevenOnlyVariables = @('IsWindows', 'IsLinux', 'IsMacOS', 'IsCoreCLR', 'PSStyle')
$envReads = New-Object System.Collections.Generic.List[object]
foreach ($v in $ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.VariableExpressionAst] }, $true)) {
    $path = $v.VariablePath
    if ($path.DriveName -eq 'env') {
        $parent = $v.Parent
        $isWrite = $parent -is [System.Management.Automation.Language.AssignmentStatementAst] -and $parent.Left -eq $v -and [string]$parent.Operator -eq 'Equals'
        if (-not $isWrite) { $envReads.Add([pscustomobject]@{ detail = $v.Extent.Text; line = $v.Extent.StartLineNumber }) }
    } elseif ($path.IsUnqualified -and $sevenOnlyVariables -contains $path.UserPath) {
        $syntax.Add([pscustomobject]@{ kind = 'ps7-variable'; detail = $v.Extent.Text; line = $v.Extent.StartLineNumber })
    }
}
$envMethods = @('GetEnvironmentVariable', 'GetEnvironmentVariables', 'ExpandEnvironmentVariables')
foreach ($m in $ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.InvokeMemberExpressionAst] }, $true)) {
    $isEnvironment = $m.Static -and $m.Expression -is [System.Management.Automation.Language.TypeExpressionAst] -and $m.Expression.TypeName.FullName -match '^(System\.)?Environment$'
    if ($isEnvironment -and $envMethods -contains [string]$m.Member.Value) {
        $envReads.Add([pscustomobject]@{ detail = $m.Extent.Text; line = $m.Extent.StartLineNumber })
    }
}
# Keys a splatted variable can hold: from hashtable literals and constant-key additions in this script; $null when unknowable.
function Get-SplatKeys([string]$Name) {
    $keys = New-Object System.Collections.Generic.List[string]
    $isVar = { param($x) $x -is [System.Management.Automation.Language.VariableExpressionAst] -and $x.VariablePath.UserPath -eq $Name }
    $assigned = $false
    foreach ($a in $ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.AssignmentStatementAst] }, $true)) {
        $left = $a.Left
        if (& $isVar $left) {
            $right = $a.Right
            if ($right -is [System.Management.Automation.Language.CommandExpressionAst]) { $right = $right.Expression }
            if ($right -is [System.Management.Automation.Language.ConvertExpressionAst]) { $right = $right.Child }
            if ($right -isnot [System.Management.Automation.Language.HashtableAst]) { return $null }
            foreach ($pair in $right.KeyValuePairs) {
                if ($pair.Item1 -isnot [System.Management.Automation.Language.StringConstantExpressionAst]) { return $null }
                $keys.Add($pair.Item1.Value)
            }
            $assigned = $true
        } elseif ($left -is [System.Management.Automation.Language.IndexExpressionAst] -and (& $isVar $left.Target)) {
            if ($left.Index -isnot [System.Management.Automation.Language.StringConstantExpressionAst]) { return $null }
            $keys.Add($left.Index.Value)
        } elseif ($left -is [System.Management.Automation.Language.MemberExpressionAst] -and (& $isVar $left.Expression)) {
            if ($left.Member -isnot [System.Management.Automation.Language.StringConstantExpressionAst]) { return $null }
            $keys.Add($left.Member.Value)
        }
    }
    foreach ($m in $ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.InvokeMemberExpressionAst] }, $true)) {
        if ((& $isVar $m.Expression) -and [string]$m.Member.Value -eq 'Add') {
            $first = @($m.Arguments)[0]
            if ($first -isnot [System.Management.Automation.Language.StringConstantExpressionAst]) { return $null }
            $keys.Add($first.Value)
        }
    }
    if (-not $assigned) { return $null }
    return ,$keys.ToArray()
}
$functions = @($ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.FunctionDefinitionAst] }, $true) | ForEach-Object { $_.Name })
$commands = New-Object System.Collections.Generic.List[object]
foreach ($c in $ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.CommandAst] }, $true)) {
    $elements = $c.CommandElements
    $params = New-Object System.Collections.Generic.List[object]
    $splatted = $false
    for ($i = 1; $i -lt $elements.Count; $i++) {
        $e = $elements[$i]
        if ($e -is [System.Management.Automation.Language.CommandParameterAst]) {
            $arg = $e.Argument
            if ($null -eq $arg -and $i + 1 -lt $elements.Count -and $elements[$i + 1] -isnot [System.Management.Automation.Language.CommandParameterAst]) { $arg = $elements[$i + 1] }
            $value = $null
            if ($arg -is [System.Management.Automation.Language.StringConstantExpressionAst]) { $value = $arg.Value }
            $params.Add([pscustomobject]@{ name = $e.ParameterName; value = $value; line = $e.Extent.StartLineNumber })
            if ($sevenOnlyParameters -contains $e.ParameterName) {
                $syntax.Add([pscustomobject]@{ kind = 'ps7-parameter'; detail = '-' + $e.ParameterName; line = $e.Extent.StartLineNumber })
            }
        } elseif ($e -is [System.Management.Automation.Language.VariableExpressionAst] -and $e.Splatted) {
            $splatKeys = Get-SplatKeys $e.VariablePath.UserPath
            if ($null -eq $splatKeys) { $splatted = $true }
            foreach ($k in $splatKeys) { $params.Add([pscustomobject]@{ name = $k; value = $null; line = $e.Extent.StartLineNumber }) }
        } elseif ($e -is [System.Management.Automation.Language.StringConstantExpressionAst] -and $e.Value -match '^env:') {
            $envReads.Add([pscustomobject]@{ detail = $c.Extent.Text; line = $e.Extent.StartLineNumber })
        }
    }
    $name = $c.GetCommandName()
    if ($null -ne $name) {
        $commands.Add([pscustomobject]@{ name = $name; parameters = $params.ToArray(); splatted = $splatted; line = $c.Extent.StartLineNumber })
    }
}
[pscustomobject]@{ commands = $commands.ToArray(); functions = $functions; envReads = $envReads.ToArray(); syntax = $syntax.ToArray() }
`;

/** Parses `text` with pwsh's parser and lists its commands, environment reads and 7-only syntax. */
export async function inspectScript(shell: PowerShell, text: string): Promise<ScriptInventory> {
  return shell.run<ScriptInventory>(inspectScriptText, { Text: text });
}
