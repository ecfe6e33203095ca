import type { PowerShell } from "@csi-proxy/exec";
import { allowedCommand, type AllowedCommand } from "./commands.js";
import { inspectScript, type UsedCommand, type UsedParameter } from "./inspect.js";
import { resolveParameter } from "./parameters.js";
import { setupCommand } from "./setup-commands.js";
import { commonCommands } from "./signatures.js";

/** Options of {@link checkScript}. */
export interface CheckOptions {
  /** Also allow the setup-only cmdlets (signatures/setup-cmdlets.json): test setup scripts only. */
  readonly setup?: boolean;
  /** Functions defined elsewhere (a dot-sourced helper file) that the script may call. */
  readonly knownFunctions?: readonly string[];
}

/** A reason a script would fail, or misbehave, on a real Windows host. */
export interface ScriptProblem {
  readonly kind:
    | "parse-error"
    | "ps7-syntax"
    | "ps7-parameter"
    | "ps7-variable"
    | "unknown-command"
    | "unknown-parameter"
    | "ambiguous-parameter"
    | "splatted-parameters"
    | "env-read";
  readonly command?: string;
  readonly parameter?: string;
  readonly detail: string;
  readonly line: number;
}

/** -Encoding values that Windows PowerShell 5.1's FileSystem provider rejects. */
const ps7OnlyEncodings = new Set(["utf8nobom", "utf8bom", "ansi"]);

function parameterProblem(command: AllowedCommand, used: UsedParameter): ScriptProblem | undefined {
  const at = { command: command.name, parameter: used.name, line: used.line };
  const match = resolveParameter(command.parameters, used.name);
  if (match.kind === "ambiguous") {
    const detail = `-${used.name} could be ${match.candidates.map((c) => `-${c}`).join(", ")}`;
    return { kind: "ambiguous-parameter", ...at, detail };
  }
  if (match.kind === "unknown") {
    const seven = resolveParameter([...command.parameters, ...command.ps7Only], used.name);
    if (seven.kind === "match") {
      const detail = `-${seven.parameter} exists only in PowerShell 6/7`;
      return { kind: "ps7-parameter", ...at, detail };
    }
    return { kind: "unknown-parameter", ...at, detail: `${command.name} has no -${used.name}` };
  }
  if (match.parameter === "Encoding" && ps7OnlyEncodings.has((used.value ?? "").toLowerCase())) {
    const detail = `-Encoding ${used.value ?? ""} exists only in PowerShell 6/7`;
    return { kind: "ps7-parameter", ...at, detail };
  }
  return undefined;
}

function commandProblems(used: UsedCommand, options: CheckOptions): ScriptProblem[] {
  const command =
    allowedCommand(used.name) ?? (options.setup === true ? setupCommand(used.name) : undefined);
  if (command === undefined) {
    const sevenOnly = commonCommands.ps7OnlyCommands.some(
      (c) => c.toLowerCase() === used.name.toLowerCase(),
    );
    const detail = sevenOnly
      ? `${used.name} exists only in PowerShell 6/7`
      : `${used.name} is neither a documented Windows cmdlet nor common to PowerShell 5.1 and 7`;
    return [{ kind: "unknown-command", command: used.name, detail, line: used.line }];
  }
  const problems = used.parameters.flatMap((p) => parameterProblem(command, p) ?? []);
  if (used.splatted) {
    const detail = `${command.name} gets splatted parameters, which the check cannot verify; name them`;
    problems.push({ kind: "splatted-parameters", command: command.name, detail, line: used.line });
  }
  return problems;
}

/**
 * Parses `text` once with pwsh's parser and lists every problem: commands outside the signature
 * tables, parameters the real command lacks (or only PowerShell 7 has), ambiguous prefixes,
 * reads of the process environment, and PowerShell-7-only syntax.
 */
export async function checkScript(
  shell: PowerShell,
  text: string,
  options: CheckOptions = {},
): Promise<ScriptProblem[]> {
  const found = await inspectScript(shell, text);
  const own = new Set(
    [...found.functions, ...(options.knownFunctions ?? [])].map((f) => f.toLowerCase()),
  );
  const problems: ScriptProblem[] = [];
  // The per-command check below replaces the syntax check's name-only list of 7-only parameters.
  problems.push(...found.syntax.filter((s) => s.kind !== "ps7-parameter"));
  for (const used of found.commands) {
    if (!own.has(used.name.toLowerCase())) problems.push(...commandProblems(used, options));
  }
  for (const read of found.envReads) {
    const detail = `reads the environment (${read.detail}); caller data must come as parameters`;
    problems.push({ kind: "env-read", detail, line: read.line });
  }
  return problems.sort((a, b) => a.line - b.line);
}
