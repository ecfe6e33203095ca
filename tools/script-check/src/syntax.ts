import type { PowerShell } from "@csi-proxy/exec";
import { inspectScript, type SyntaxProblem } from "./inspect.js";

/** Parses `text` with pwsh's parser and lists what Windows PowerShell 5.1 could not run. */
export async function windowsPowerShellProblems(
  shell: PowerShell,
  text: string,
): Promise<SyntaxProblem[]> {
  return [...(await inspectScript(shell, text)).syntax];
}
