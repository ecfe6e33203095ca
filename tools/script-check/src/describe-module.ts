import { ps, type PowerShell } from "@csi-proxy/exec";

/** A parameter as one parameter set of a function declares it. */
export interface DeclaredSetParameter {
  readonly name: string;
  readonly mandatory: boolean;
  /** Null when named-only. */
  readonly position: number | null;
  readonly byValue: boolean;
  readonly byPropertyName: boolean;
}

/** A function's declared signature, as Get-Command reports it. */
export interface DeclaredFunction {
  readonly name: string;
  readonly defaultParameterSet: string | null;
  readonly parameters: readonly { name: string; type: string; aliases: readonly string[] }[];
  readonly parameterSets: readonly {
    name: string;
    isDefault: boolean;
    parameters: readonly DeclaredSetParameter[];
  }[];
}

// Imports the module into this session and reads each exported function's metadata.
const describeModuleText = ps("tools.describeModule")`
param([string]$ModulePath)
$common = [System.Management.Automation.Cmdlet]::CommonParameters
$module = Import-Module -Name $ModulePath -PassThru -Force -DisableNameChecking
$functions = foreach ($f in $module.ExportedFunctions.Values) {
    $params = foreach ($p in $f.Parameters.Values) {
        if ($common -notcontains $p.Name) {
            [pscustomobject]@{ name = $p.Name; type = $p.ParameterType.Name; aliases = @($p.Aliases) }
        }
    }
    $sets = foreach ($s in $f.ParameterSets) {
        $members = foreach ($p in $s.Parameters) {
            if ($common -notcontains $p.Name) {
                $position = $null
                if ($p.Position -ge 0) { $position = $p.Position }
                [pscustomobject]@{ name = $p.Name; mandatory = $p.IsMandatory; position = $position; byValue = $p.ValueFromPipeline; byPropertyName = $p.ValueFromPipelineByPropertyName }
            }
        }
        [pscustomobject]@{ name = $s.Name; isDefault = $s.IsDefault; parameters = @($members) }
    }
    [pscustomobject]@{ name = $f.Name; defaultParameterSet = $f.DefaultParameterSet; parameters = @($params); parameterSets = @($sets) }
}
,@($functions)
`;

/** Imports the module at `modulePath` and describes every function it exports. */
export async function describeModule(
  shell: PowerShell,
  modulePath: string,
): Promise<DeclaredFunction[]> {
  return shell.run<DeclaredFunction[]>(describeModuleText, { ModulePath: modulePath });
}
