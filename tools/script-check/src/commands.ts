import { commonCommands, windowsCmdlets, type ParameterName } from "./signatures.js";

/** A command a script may call, with what the binder accepts on Windows PowerShell 5.1. */
export interface AllowedCommand {
  readonly name: string;
  readonly source: "windows-cmdlet" | "common-command";
  /** Every parameter 5.1 binds, common parameters included. */
  readonly parameters: readonly ParameterName[];
  /** Parameters that only PowerShell 6/7 has. */
  readonly ps7Only: readonly ParameterName[];
}

const byName = new Map<string, AllowedCommand & { readonly module: string }>();

/** What 5.1 binds for a Windows cmdlet: its own parameters plus the CDXML, -WhatIf/-Confirm and common ones. */
export function windowsCmdletEntry(c: {
  readonly name: string;
  readonly cdxml: boolean;
  readonly shouldProcess: boolean;
  readonly parameters: readonly ParameterName[];
}): AllowedCommand {
  return {
    name: c.name,
    source: "windows-cmdlet",
    parameters: [
      ...c.parameters,
      ...(c.cdxml ? windowsCmdlets.cdxmlParameters : []),
      ...(c.shouldProcess ? windowsCmdlets.shouldProcessParameters : []),
      ...commonCommands.commonParameters,
    ],
    ps7Only: commonCommands.ps7OnlyCommonParameters,
  };
}

for (const c of windowsCmdlets.cmdlets) {
  byName.set(c.name.toLowerCase(), { ...windowsCmdletEntry(c), module: c.module });
}
for (const c of commonCommands.commands) {
  byName.set(c.name.toLowerCase(), {
    name: c.name,
    module: c.module,
    source: "common-command",
    parameters: [...c.parameters, ...commonCommands.commonParameters],
    ps7Only: [
      ...c.ps7OnlyParameters.map((name) => ({ name, aliases: [] })),
      ...commonCommands.ps7OnlyCommonParameters,
    ],
  });
}
const aliases = new Map(
  Object.entries(commonCommands.aliases).map(([alias, target]) => [alias.toLowerCase(), target]),
);

/** The command `name` stands for (`Module\Name` and the listed aliases allowed), if scripts may call it. */
export function allowedCommand(name: string): AllowedCommand | undefined {
  const slash = name.lastIndexOf("\\");
  const bare = slash < 0 ? name : name.slice(slash + 1);
  const target = aliases.get(bare.toLowerCase()) ?? bare;
  const found = byName.get(target.toLowerCase());
  if (found === undefined) return undefined;
  // A module-qualified name must name the module the command really lives in.
  if (slash >= 0 && name.slice(0, slash).toLowerCase() !== found.module.toLowerCase()) {
    return undefined;
  }
  return found;
}
