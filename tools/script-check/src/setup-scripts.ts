import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PowerShell } from "@csi-proxy/exec";
import { checkScript, type ScriptProblem } from "./check-script.js";
import { inspectScript } from "./inspect.js";

/** The problems of one setup script file. */
export interface SetupScriptReport {
  readonly file: string;
  readonly problems: readonly ScriptProblem[];
}

/**
 * Checks every `.ps1` file in `dir` as the library's scripts are checked (parser, 5.1 syntax,
 * every cmdlet and parameter in a table), allowing also the setup-only cmdlets and the
 * functions the folder's files define for each other (dot-sourced helpers).
 */
export async function checkSetupScripts(
  shell: PowerShell,
  dir: string,
): Promise<SetupScriptReport[]> {
  const files = readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith(".ps1"))
    .sort();
  const texts = files.map((f) => readFileSync(join(dir, f), "utf8"));
  const knownFunctions: string[] = [];
  for (const text of texts) knownFunctions.push(...(await inspectScript(shell, text)).functions);
  const reports: SetupScriptReport[] = [];
  for (const [i, file] of files.entries()) {
    reports.push({
      file,
      problems: await checkScript(shell, texts[i] ?? "", { setup: true, knownFunctions }),
    });
  }
  return reports;
}
