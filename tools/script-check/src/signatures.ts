import { readFileSync } from "node:fs";

/** A parameter of a real Windows cmdlet, as documented (windows-cmdlets.md §2–§6). */
export interface ParameterSignature {
  readonly name: string;
  /** The documented .NET type name, e.g. `UInt32[]`, `SwitchParameter`, `CimInstance`. */
  readonly type: string;
  readonly aliases: readonly string[];
  /** Documented position, or null for named-only; only the order within a set matters. */
  readonly position: number | null;
  /** `ByValue` and/or `ByPropertyName`. */
  readonly pipeline: readonly string[];
  /** Every parameter set the parameter belongs to, with whether it is mandatory there. */
  readonly sets: Readonly<Record<string, { readonly mandatory: boolean }>>;
}

/** A real Windows cmdlet's signature. */
export interface CmdletSignature {
  readonly name: string;
  readonly module: string;
  /** CDXML cmdlets also take -CimSession, -ThrottleLimit and -AsJob in every set. */
  readonly cdxml: boolean;
  /** Whether -WhatIf and -Confirm exist. */
  readonly shouldProcess: boolean;
  readonly defaultParameterSet: string;
  readonly parameterSets: readonly string[];
  readonly parameters: readonly ParameterSignature[];
}

/** A parameter name with its aliases. */
export interface ParameterName {
  readonly name: string;
  readonly aliases: readonly string[];
}

/** signatures/windows-cmdlets.json */
export interface WindowsCmdletTable {
  readonly cdxmlParameters: readonly (ParameterName & { readonly type: string })[];
  readonly shouldProcessParameters: readonly (ParameterName & { readonly type: string })[];
  readonly cmdlets: readonly CmdletSignature[];
}

/** A command both Windows PowerShell 5.1 and PowerShell 7 have. */
export interface CommonCommand {
  readonly name: string;
  readonly module: string;
  /** Its Windows PowerShell 5.1 parameters (common parameters excluded). */
  readonly parameters: readonly ParameterName[];
  /** Parameters only PowerShell 6/7 has. */
  readonly ps7OnlyParameters: readonly string[];
}

/** signatures/common-commands.json */
export interface CommonCommandTable {
  readonly commonParameters: readonly ParameterName[];
  readonly ps7OnlyCommonParameters: readonly ParameterName[];
  /** Commands only PowerShell 6/7 has, named as such in problems. */
  readonly ps7OnlyCommands: readonly string[];
  /** Aliases scripts may use, to the command they stand for. */
  readonly aliases: Readonly<Record<string, string>>;
  readonly commands: readonly CommonCommand[];
}

function load(file: string): unknown {
  // Data files beside src/, read at run time so that they stay plain JSON.
  return JSON.parse(readFileSync(new URL(`../signatures/${file}`, import.meta.url), "utf8"));
}

/** The real Windows cmdlets' signatures. */
export const windowsCmdlets = load("windows-cmdlets.json") as WindowsCmdletTable;

/** The commands scripts may use besides the Windows cmdlets. */
export const commonCommands = load("common-commands.json") as CommonCommandTable;
