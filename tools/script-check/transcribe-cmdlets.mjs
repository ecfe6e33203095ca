// Transcribes §2–§6 of windows-cmdlets.md into signatures/windows-cmdlets.json.
// Usage: node transcribe-cmdlets.mjs <path to windows-cmdlets.md>  (then run prettier on the JSON)
// Set membership and per-set mandatory flags come from each cmdlet's syntax lines (they are per
// set); the parameter table supplies type, position, pipeline and aliases, and is cross-checked
// against the syntax lines (any disagreement aborts the transcription).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const modules = {
  2: "Storage",
  3: "SmbShare",
  4: "iSCSI",
  5: "CimCmdlets",
  6: "Microsoft.PowerShell.Management",
};
const allSets = "__AllParameterSets";

function parseSetLabel(label) {
  const isDefault = label.endsWith(" (Default)");
  const name = label.replace(/ \(Default\)$/, "");
  return { name: name === "(only set)" ? allSets : name, isDefault };
}

// `Get-Disk [[-Number] <UInt32[]>]` -> Map(name -> mandatory)
function parseSyntax(syntax, cmdlet) {
  const body = syntax.slice(cmdlet.length).trim();
  const found = new Map();
  const re = /(\[?)(\[?)-([A-Za-z]+)(\]?)( <[^>]+>)?(\]?)/g;
  let m;
  while ((m = re.exec(body)) !== null) {
    const [, outer, inner, name, innerClose, type, outerClose] = m;
    // `-X <T>` and `[-X] <T>` are mandatory; `[-X <T>]`, `[[-X] <T>]` and `[-Switch]` are optional.
    const positionalMandatory =
      outer === "[" && inner === "" && innerClose === "]" && type !== undefined && !outerClose;
    const optional = outer === "[" && !positionalMandatory;
    found.set(name, !optional);
  }
  return found;
}

function parseMandatory(cell, sets) {
  if (cell === "yes") return () => true;
  if (cell === "no") return () => false;
  const perSet = new Map();
  for (const m of cell.matchAll(/(True|False) \(([^)]*)\)/g)) {
    for (const s of m[2].split(", ")) perSet.set(s.trim(), m[1] === "True");
  }
  return (set) => {
    if (!perSet.has(set)) throw new Error(`mandatory cell lacks set ${set}: ${cell} (${sets})`);
    return perSet.get(set);
  };
}

function transcribe(text) {
  const cmdlets = [];
  let section = 0;
  let current;
  for (const line of text.split("\n")) {
    const h2 = /^## (\d+)\./.exec(line);
    if (h2) {
      section = Number(h2[1]);
      current = undefined;
      continue;
    }
    if (!(section in modules)) continue;
    const h3 = /^### (\S+)$/.exec(line);
    if (h3) {
      current = {
        name: h3[1],
        module: modules[section],
        cdxml: false,
        shouldProcess: false,
        defaultParameterSet: undefined,
        sets: [],
        syntax: new Map(),
        rows: [],
      };
      cmdlets.push(current);
      continue;
    }
    if (!current) continue;
    if (line.startsWith("Source:")) {
      current.cdxml = line.includes("CIM common: -CimSession");
      current.shouldProcess = line.includes("ShouldProcess: -WhatIf (wi), -Confirm (cf)");
      continue;
    }
    const set = /^- `([^`]+)`: `([^`]+)`$/.exec(line);
    if (set) {
      const { name, isDefault } = parseSetLabel(set[1]);
      current.sets.push(name);
      if (isDefault) current.defaultParameterSet = name;
      current.syntax.set(name, parseSyntax(set[2], current.name));
      continue;
    }
    const assoc = /^- Association sets, each .*\(pipeline ByValue\): (.*)$/.exec(line);
    if (assoc) {
      for (const m of assoc[1].matchAll(/(\w+) `-(\w+)`/g)) {
        current.sets.push(m[1]);
        current.syntax.set(m[1], new Map([[m[2], false]]));
      }
      continue;
    }
    const row = /^\| -(\w+) \| (.*)$/.exec(line);
    if (row) current.rows.push([row[1], ...row[2].split(" | ").map((c) => c.replace(/ ?\|$/, ""))]);
  }
  return cmdlets.map(finish);
}

function finish(c) {
  if (c.sets.length === 0) throw new Error(`${c.name}: no parameter sets`);
  const parameters = c.rows.map(([name, type, setsCell, mand, pos, pipe, aliases]) => {
    const listed = setsCell === "all" ? c.sets : setsCell.split(", ");
    const mandatoryIn = parseMandatory(mand, setsCell);
    const sets = {};
    for (const s of listed) {
      const syntax = c.syntax.get(s);
      if (!syntax) throw new Error(`${c.name} -${name}: unknown set ${s}`);
      if (!syntax.has(name)) throw new Error(`${c.name} -${name}: not in the syntax of ${s}`);
      if (syntax.get(name) !== mandatoryIn(s)) {
        throw new Error(`${c.name} -${name}: mandatory in ${s} differs between syntax and table`);
      }
      sets[s] = { mandatory: syntax.get(name) };
    }
    for (const [s, syntax] of c.syntax) {
      if (syntax.has(name) && !(s in sets)) throw new Error(`${c.name} -${name}: table lacks ${s}`);
    }
    return {
      name,
      type,
      aliases: aliases.trim() === "" ? [] : aliases.split(", ").map((a) => a.trim()),
      position: pos === "named" ? null : Number(pos),
      pipeline: pipe === "no" ? [] : pipe.split(", "),
      sets,
    };
  });
  for (const [s, syntax] of c.syntax) {
    for (const p of syntax.keys()) {
      if (!parameters.some((q) => q.name === p))
        throw new Error(`${c.name}: ${s} has -${p}, no row`);
    }
  }
  return {
    name: c.name,
    module: c.module,
    cdxml: c.cdxml,
    shouldProcess: c.shouldProcess,
    defaultParameterSet: c.defaultParameterSet ?? c.sets[0],
    parameterSets: c.sets,
    parameters,
  };
}

const source = process.argv[2];
if (!source) throw new Error("usage: node transcribe-cmdlets.mjs <windows-cmdlets.md>");
const table = {
  $comment:
    "Transcribed by transcribe-cmdlets.mjs from windows-cmdlets.md §2–§6 (platyPS docs of Windows Server 2022 cmdlets). CDXML cmdlets also take -CimSession <CimSession[]> (alias Session), -ThrottleLimit <Int32> and -AsJob in every set; shouldProcess adds -WhatIf (alias wi) and -Confirm (alias cf). Positions are as documented (only their order within a set matters).",
  cdxmlParameters: [
    { name: "CimSession", type: "CimSession[]", aliases: ["Session"] },
    { name: "ThrottleLimit", type: "Int32", aliases: [] },
    { name: "AsJob", type: "SwitchParameter", aliases: [] },
  ],
  shouldProcessParameters: [
    { name: "WhatIf", type: "SwitchParameter", aliases: ["wi"] },
    { name: "Confirm", type: "SwitchParameter", aliases: ["cf"] },
  ],
  cmdlets: transcribe(readFileSync(source, "utf8")),
};
const target = fileURLToPath(new URL("signatures/windows-cmdlets.json", import.meta.url));
// Entries added by hand from Microsoft's docs carry a "source"; keep them across a re-transcription.
const handAdded = JSON.parse(readFileSync(target, "utf8")).cmdlets.filter((c) => c.source);
table.cmdlets.push(...handAdded.filter((c) => !table.cmdlets.some((t) => t.name === c.name)));
writeFileSync(target, `${JSON.stringify(table, null, 2)}\n`);
console.log(`${table.cmdlets.length} cmdlets -> ${target}`);
