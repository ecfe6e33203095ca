import { ps, type PowerShell } from "@csi-proxy/exec";

/** A reason a script would not run on Windows PowerShell 5.1. */
export interface SyntaxProblem {
  readonly kind: "parse-error" | "ps7-syntax" | "ps7-parameter";
  readonly detail: string;
  readonly line: number;
}

// Parsed by pwsh's own parser; AST node types and tokens that Windows PowerShell 5.1 lacks.
const checkSyntax = ps("tools.checkSyntax")`
param([string]$Text)
$tokens = $null
$errors = $null
$ast = [System.Management.Automation.Language.Parser]::ParseInput($Text, [ref]$tokens, [ref]$errors)
foreach ($e in $errors) {
    [pscustomobject]@{ kind = 'parse-error'; detail = $e.Message; line = $e.Extent.StartLineNumber }
}
$sevenOnlyTypes = @('TernaryExpressionAst', 'PipelineChainAst')
$nodes = $ast.FindAll({ param($n) $sevenOnlyTypes -contains $n.GetType().Name }, $true)
foreach ($n in $nodes) {
    [pscustomobject]@{ kind = 'ps7-syntax'; detail = $n.GetType().Name + ': ' + $n.Extent.Text; line = $n.Extent.StartLineNumber }
}
$sevenOnlyTokens = @('QuestionQuestion', 'QuestionQuestionEquals', 'QuestionDot', 'QuestionLBracket', 'AndAnd', 'OrOr')
foreach ($t in $tokens) {
    if ($sevenOnlyTokens -contains [string]$t.Kind) {
        [pscustomobject]@{ kind = 'ps7-syntax'; detail = [string]$t.Kind + ': ' + $t.Text; line = $t.Extent.StartLineNumber }
    }
}
$sevenOnlyParameters = @('AsArray', 'Parallel', 'AsHashtable', 'EnumsAsStrings', 'EscapeHandling', 'NoEnumerate', 'DateKind')
$params = $ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.CommandParameterAst] }, $true)
foreach ($p in $params) {
    if ($sevenOnlyParameters -contains $p.ParameterName) {
        [pscustomobject]@{ kind = 'ps7-parameter'; detail = '-' + $p.ParameterName; line = $p.Extent.StartLineNumber }
    }
}
`;

/** Parses `text` with pwsh's parser and lists what Windows PowerShell 5.1 could not run. */
export async function windowsPowerShellProblems(
  shell: PowerShell,
  text: string,
): Promise<SyntaxProblem[]> {
  const found = await shell.run<SyntaxProblem | SyntaxProblem[] | undefined>(checkSyntax, {
    Text: text,
  });
  if (found === undefined) return [];
  return Array.isArray(found) ? found : [found];
}
