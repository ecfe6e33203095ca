// Writes signatures/common-commands.json: the commands that Windows PowerShell 5.1 and
// PowerShell 7 both have and that scripts may use, with their parameters as pwsh 7 declares them
// minus the parameters PowerShell 6/7 added (listed by hand below from the 5.1 and 7.x docs).
// Usage: node describe-common-commands.mjs [path to pwsh]  (then run prettier on the JSON)
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createPowerShell, ps } from "@csi-proxy/exec";

// Command -> parameters it lacks in Windows PowerShell 5.1 (PowerShell 6.0–7.5 additions).
const commands = {
  "Microsoft.PowerShell.Core": {
    "ForEach-Object": ["Parallel", "ThrottleLimit", "TimeoutSeconds", "AsJob", "UseNewRunspace"],
    "Where-Object": ["Not"],
    "Import-Module": ["UseWindowsPowerShell", "SkipEditionCheck"],
    "Get-Module": ["SkipEditionCheck"],
    "Remove-Module": [],
    "Get-Command": ["UseFuzzyMatching", "FuzzyMinimumDistance", "UseAbbreviationExpansion"],
    "Set-StrictMode": [],
    "Out-Null": [],
  },
  "Microsoft.PowerShell.Utility": {
    "Select-Object": ["SkipIndex", "CaseInsensitive"],
    "Sort-Object": ["Top", "Bottom", "Stable"],
    "Measure-Object": ["AllStats", "StandardDeviation"],
    "Group-Object": [],
    "Compare-Object": [],
    "Tee-Object": ["Encoding"],
    "Get-Unique": ["CaseInsensitive"],
    "ConvertTo-Json": ["AsArray", "EnumsAsStrings", "EscapeHandling"],
    "ConvertFrom-Json": ["AsHashtable", "Depth", "NoEnumerate", "DateKind"],
    "New-Object": [],
    "Add-Type": ["CompilerOptions"],
    "Add-Member": [],
    "Get-Member": [],
    "Write-Output": [],
    "Write-Error": [],
    "Write-Warning": [],
    "Write-Verbose": [],
    "Write-Debug": [],
    "Write-Information": [],
    "Write-Host": [],
    "Write-Progress": [],
    "Get-Date": ["AsUTC", "UnixTimeSeconds"],
    "New-TimeSpan": ["Milliseconds"],
    "Start-Sleep": ["Duration"],
    "Measure-Command": [],
    "Out-String": ["NoNewline"],
    "Select-String": ["Raw", "NoEmphasis", "Culture"],
    "Get-Variable": [],
    "Set-Variable": [],
    "New-Variable": [],
    "Remove-Variable": [],
    "Clear-Variable": [],
    "Get-Random": ["Shuffle"],
    "New-Guid": ["Empty", "InputObject"],
    "Get-FileHash": [],
    "Get-TypeData": [],
    "Update-TypeData": [],
    "Remove-TypeData": [],
    "Get-Culture": ["NoUserOverrides", "ListAvailable", "Name"],
  },
  "Microsoft.PowerShell.Management": {
    "Get-Item": [],
    "Get-ChildItem": ["FollowSymlink"],
    "Test-Path": [],
    "Join-Path": ["AdditionalChildPath"],
    "Split-Path": ["LeafBase", "Extension"],
    "Resolve-Path": ["RelativeBasePath", "Force"],
    "Convert-Path": [],
    "New-Item": [],
    "Remove-Item": [],
    "Copy-Item": [],
    "Move-Item": [],
    "Rename-Item": [],
    "Get-Content": ["AsByteStream"],
    "Set-Content": ["AsByteStream"],
    "Add-Content": ["AsByteStream"],
    "Clear-Content": [],
    "Get-ItemProperty": [],
    "Set-ItemProperty": [],
    "Get-Location": [],
    "Set-Location": [],
    "Push-Location": [],
    "Pop-Location": [],
    "Get-PSDrive": [],
  },
  "Microsoft.PowerShell.Security": {
    "ConvertTo-SecureString": [],
    "ConvertFrom-SecureString": ["AsPlainText"],
  },
};

const describeCommands = ps("tools.describeCommonCommands")`
param([string[]]$Name)
$common = [System.Management.Automation.Cmdlet]::CommonParameters
foreach ($n in $Name) {
    $c = Get-Command -Name $n -CommandType Cmdlet
    $params = foreach ($p in $c.Parameters.Values) {
        if ($common -notcontains $p.Name) { [pscustomobject]@{ name = $p.Name; aliases = @($p.Aliases) } }
    }
    [pscustomobject]@{ name = $c.Name; module = $c.ModuleName; parameters = @($params | Sort-Object name) }
}
`;

const pwsh =
  process.argv[2] ?? fileURLToPath(new URL("../../.tools/pwsh/bin/pwsh", import.meta.url));
const shell = createPowerShell({ executable: pwsh });
try {
  const names = Object.values(commands).flatMap((m) => Object.keys(m));
  const described = await shell.run(describeCommands, { Name: names });
  const out = described.map((c) => {
    const ps7Only = commands[c.module]?.[c.name];
    if (!ps7Only) throw new Error(`${c.name} is in ${c.module}, not where it was listed`);
    for (const p of ps7Only) {
      if (!c.parameters.some((q) => q.name === p)) throw new Error(`${c.name} lacks -${p}`);
    }
    return {
      name: c.name,
      module: c.module,
      parameters: c.parameters.filter((p) => !ps7Only.includes(p.name)),
      ps7OnlyParameters: ps7Only,
    };
  });
  const table = {
    $comment:
      "Written by describe-common-commands.mjs: cmdlets common to Windows PowerShell 5.1 and PowerShell 7, with the parameters pwsh 7 on Linux declares minus those PowerShell 6/7 added (ps7OnlyParameters). Excluded on purpose: 7-only commands (Join-String, Test-Json, Get-Error, ForEach-Object -Parallel), commands that differ materially (Invoke-WebRequest, Test-Connection, Start-Process), and Invoke-Expression.",
    commonParameters: [
      { name: "Verbose", aliases: ["vb"] },
      { name: "Debug", aliases: ["db"] },
      { name: "ErrorAction", aliases: ["ea"] },
      { name: "WarningAction", aliases: ["wa"] },
      { name: "InformationAction", aliases: ["infa"] },
      { name: "ErrorVariable", aliases: ["ev"] },
      { name: "WarningVariable", aliases: ["wv"] },
      { name: "InformationVariable", aliases: ["iv"] },
      { name: "OutVariable", aliases: ["ov"] },
      { name: "OutBuffer", aliases: ["ob"] },
      { name: "PipelineVariable", aliases: ["pv"] },
    ],
    ps7OnlyCommonParameters: [{ name: "ProgressAction", aliases: ["proga"] }],
    ps7OnlyCommands: [
      "Join-String",
      "Test-Json",
      "Get-Error",
      "Get-Uptime",
      "Remove-Alias",
      "Remove-Service",
      "ConvertFrom-Markdown",
      "Show-Markdown",
      "Get-MarkdownOption",
      "Set-MarkdownOption",
      "Get-ExperimentalFeature",
      "Enable-ExperimentalFeature",
      "Disable-ExperimentalFeature",
      "Get-PSSubsystem",
      "ConvertTo-CliXml",
      "ConvertFrom-CliXml",
    ],
    aliases: {
      "%": "ForEach-Object",
      foreach: "ForEach-Object",
      "?": "Where-Object",
      where: "Where-Object",
      select: "Select-Object",
    },
    commands: out,
  };
  const target = fileURLToPath(new URL("signatures/common-commands.json", import.meta.url));
  writeFileSync(target, `${JSON.stringify(table, null, 2)}\n`);
  console.log(`${out.length} commands -> ${target}`);
} finally {
  await shell.close();
}
