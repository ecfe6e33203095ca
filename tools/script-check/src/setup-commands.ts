import { readFileSync } from "node:fs";
import { windowsCmdletEntry, type AllowedCommand } from "./commands.js";
import type { ParameterName } from "./signatures.js";

/** A cmdlet only test setup scripts may call, with its documented parameters and where they come from. */
export interface SetupCmdlet {
  readonly name: string;
  readonly module: string;
  /** The Microsoft documentation page the parameters were taken from. */
  readonly source: string;
  readonly cdxml: boolean;
  readonly shouldProcess: boolean;
  readonly parameters: readonly ParameterName[];
}

/** signatures/setup-cmdlets.json */
export interface SetupCmdletTable {
  readonly cmdlets: readonly SetupCmdlet[];
  /** Executables setup scripts run (their arguments are not parameters the parser can check). */
  readonly nativeCommands: readonly { readonly name: string; readonly source: string }[];
}

/** The cmdlets the conformance suite's Windows setup and teardown use beyond the library's table. */
export const setupCmdlets = JSON.parse(
  readFileSync(new URL("../signatures/setup-cmdlets.json", import.meta.url), "utf8"),
) as SetupCmdletTable;

const byName = new Map<string, AllowedCommand>();
for (const c of setupCmdlets.cmdlets) byName.set(c.name.toLowerCase(), windowsCmdletEntry(c));
for (const n of setupCmdlets.nativeCommands) {
  byName.set(n.name.toLowerCase(), {
    name: n.name,
    source: "windows-cmdlet",
    parameters: [],
    ps7Only: [],
  });
}

/** A setup-only command by name (case-insensitive), if the setup table has it. */
export function setupCommand(name: string): AllowedCommand | undefined {
  return byName.get(name.toLowerCase());
}
