import type { PowerShell } from "@csi-proxy/exec";
import { describeModule, type DeclaredFunction } from "./describe-module.js";
import { commonCommands, windowsCmdlets, type CmdletSignature } from "./signatures.js";

/** A way a simulator function differs from the real cmdlet it stands for. */
export interface SimulatorProblem {
  readonly kind:
    | "missing-parameter"
    | "extra-parameter"
    | "missing-alias"
    | "extra-alias"
    | "type"
    | "missing-set"
    | "extra-set"
    | "default-set"
    | "set-membership"
    | "mandatory"
    | "pipeline"
    | "position-order";
  readonly command: string;
  readonly parameter?: string;
  readonly detail: string;
}

/** The outcome of holding a simulator module against the signature table. */
export interface SimulatorReport {
  readonly problems: SimulatorProblem[];
  /** Table cmdlets the module defines, and so were checked. */
  readonly checked: string[];
  /** Table cmdlets the module does not define yet: information, not failure. */
  readonly notDefined: string[];
}

interface ExpectedParameter {
  readonly name: string;
  readonly type: string;
  readonly aliases: readonly string[];
  readonly position: number | null;
  readonly pipeline: readonly string[];
  readonly sets: Readonly<Record<string, { readonly mandatory: boolean }>>;
}

// Types a PowerShell 7 function can declare exactly; CIM, enum and .NET-Windows types it cannot.
const comparableTypes =
  /^(String|Char|Boolean|Int32|UInt16|UInt32|UInt64|SwitchParameter|Uri)(\[\])?$/;
const common = new Set(
  [...commonCommands.commonParameters, ...commonCommands.ps7OnlyCommonParameters].map((p) =>
    p.name.toLowerCase(),
  ),
);

function expectedParameters(cmdlet: CmdletSignature): ExpectedParameter[] {
  const everySet = Object.fromEntries(cmdlet.parameterSets.map((s) => [s, { mandatory: false }]));
  const extras = [
    ...(cmdlet.cdxml ? windowsCmdlets.cdxmlParameters : []),
    ...(cmdlet.shouldProcess ? windowsCmdlets.shouldProcessParameters : []),
  ].map((p) => ({ ...p, position: null, pipeline: [], sets: everySet }));
  return [...cmdlet.parameters, ...extras];
}

const lower = (s: string) => s.toLowerCase();

function compareParameters(
  cmdlet: CmdletSignature,
  fn: DeclaredFunction,
  expected: readonly ExpectedParameter[],
): SimulatorProblem[] {
  const problems: SimulatorProblem[] = [];
  const declared = new Map(fn.parameters.map((p) => [lower(p.name), p]));
  for (const want of expected) {
    const at = { command: cmdlet.name, parameter: want.name };
    const got = declared.get(lower(want.name));
    if (got === undefined) {
      problems.push({ kind: "missing-parameter", ...at, detail: `-${want.name} is not declared` });
      continue;
    }
    const gotAliases = new Set(got.aliases.map(lower));
    for (const alias of want.aliases.filter((a) => !gotAliases.has(lower(a)))) {
      problems.push({ kind: "missing-alias", ...at, detail: `alias ${alias} is not declared` });
    }
    const wantAliases = new Set(want.aliases.map(lower));
    for (const alias of got.aliases.filter((a) => !wantAliases.has(lower(a)))) {
      problems.push({ kind: "extra-alias", ...at, detail: `alias ${alias} does not exist` });
    }
    if (comparableTypes.test(want.type) && lower(got.type) !== lower(want.type)) {
      problems.push({ kind: "type", ...at, detail: `declared ${got.type}, real ${want.type}` });
    }
  }
  const wanted = new Set(expected.map((p) => lower(p.name)));
  for (const got of fn.parameters.filter(
    (p) => !wanted.has(lower(p.name)) && !common.has(lower(p.name)),
  )) {
    const detail = `-${got.name} is declared but the real cmdlet has no such parameter`;
    problems.push({ kind: "extra-parameter", command: cmdlet.name, parameter: got.name, detail });
  }
  return problems;
}

function compareSets(
  cmdlet: CmdletSignature,
  fn: DeclaredFunction,
  expected: readonly ExpectedParameter[],
): SimulatorProblem[] {
  const problems: SimulatorProblem[] = [];
  const command = cmdlet.name;
  const sets = new Map(fn.parameterSets.map((s) => [s.name, s]));
  for (const name of cmdlet.parameterSets.filter((s) => !sets.has(s))) {
    problems.push({ kind: "missing-set", command, detail: `parameter set '${name}' is missing` });
  }
  for (const name of [...sets.keys()].filter((s) => !cmdlet.parameterSets.includes(s))) {
    problems.push({ kind: "extra-set", command, detail: `parameter set '${name}' is not real` });
  }
  const defaultSet = fn.parameterSets.find((s) => s.isDefault)?.name ?? fn.defaultParameterSet;
  if (fn.parameterSets.length > 1 && defaultSet !== cmdlet.defaultParameterSet) {
    const detail = `default set is '${defaultSet ?? ""}', real '${cmdlet.defaultParameterSet}'`;
    problems.push({ kind: "default-set", command, detail });
  }
  for (const setName of cmdlet.parameterSets) {
    const set = sets.get(setName);
    if (set === undefined) continue;
    const members = new Map(set.parameters.map((p) => [lower(p.name), p]));
    for (const want of expected) {
      const got = members.get(lower(want.name));
      const inSet = want.sets[setName];
      const at = { command, parameter: want.name };
      if ((inSet === undefined) !== (got === undefined)) {
        const detail = `-${want.name} is ${got === undefined ? "missing from" : "wrongly in"} set '${setName}'`;
        problems.push({ kind: "set-membership", ...at, detail });
      }
      if (inSet === undefined || got === undefined) continue;
      if (inSet.mandatory !== got.mandatory) {
        const detail = `-${want.name} in '${setName}' is ${got.mandatory ? "" : "not "}mandatory, real ${inSet.mandatory ? "" : "not "}mandatory`;
        problems.push({ kind: "mandatory", ...at, detail });
      }
      const byValue = want.pipeline.includes("ByValue");
      const byName = want.pipeline.includes("ByPropertyName");
      if (byValue !== got.byValue || byName !== got.byPropertyName) {
        const declared = [got.byValue ? "ByValue" : "", got.byPropertyName ? "ByPropertyName" : ""];
        const detail = `-${want.name} in '${setName}' binds from the pipeline [${declared.filter(Boolean).join(", ")}], real [${want.pipeline.join(", ")}]`;
        problems.push({ kind: "pipeline", ...at, detail });
      }
    }
    const order = (ps: readonly { name: string; position: number | null }[]) =>
      ps
        .filter((p) => p.position !== null)
        .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
        .map((p) => p.name.toLowerCase())
        .join(", ");
    const realOrder = order(expected.filter((p) => p.sets[setName] !== undefined));
    const simOrder = order(set.parameters);
    if (realOrder !== simOrder) {
      const detail = `positional order in '${setName}' is [${simOrder}], real [${realOrder}]`;
      problems.push({ kind: "position-order", command, detail });
    }
  }
  return problems;
}

/**
 * Imports the simulator module and holds every exported function that stands for a table cmdlet
 * to the real signature: parameters, aliases, types, sets, mandatory flags, pipeline and
 * positional order. Cmdlets the module does not define yet are listed, not failed.
 */
export async function checkSimulatorModule(
  shell: PowerShell,
  modulePath: string,
): Promise<SimulatorReport> {
  const functions = new Map(
    (await describeModule(shell, modulePath)).map((f) => [lower(f.name), f]),
  );
  const report: SimulatorReport = { problems: [], checked: [], notDefined: [] };
  for (const cmdlet of windowsCmdlets.cmdlets) {
    const fn = functions.get(lower(cmdlet.name));
    if (fn === undefined) {
      report.notDefined.push(cmdlet.name);
      continue;
    }
    report.checked.push(cmdlet.name);
    const expected = expectedParameters(cmdlet);
    report.problems.push(...compareParameters(cmdlet, fn, expected));
    report.problems.push(...compareSets(cmdlet, fn, expected));
  }
  return report;
}
