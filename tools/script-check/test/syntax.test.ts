import { createPowerShell, definedScripts, transportScripts } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, expect, it } from "vitest";
import { windowsPowerShellProblems } from "../src/index.js";

describeWithPwsh("scripts stay valid Windows PowerShell 5.1", (pwsh) => {
  const shell = createPowerShell({ executable: pwsh });
  afterAll(() => shell.close());

  it("the transport's host script and bootstrap", async () => {
    expect(await windowsPowerShellProblems(shell, transportScripts.host)).toEqual([]);
    expect(await windowsPowerShellProblems(shell, transportScripts.bootstrap)).toEqual([]);
  });

  it("every script the packages define", async () => {
    const scripts = definedScripts().filter((s) => !s.name.startsWith("tools."));
    for (const script of scripts) {
      expect(await windowsPowerShellProblems(shell, script.text), script.name).toEqual([]);
    }
  });

  it("the checker itself catches PowerShell 7 syntax and parse errors", async () => {
    const problems = await windowsPowerShellProblems(
      shell,
      "$a = $b ?? 1; $c ? 1 : 2; ${d}?.e; ConvertTo-Json -AsArray @(); a && b\n1 |",
    );
    const details = problems.map((p) => `${p.kind} ${p.detail.split(":")[0] ?? ""}`).sort();
    expect(details).toEqual(
      [
        "parse-error An empty pipe element is not allowed.",
        "ps7-parameter -AsArray",
        "ps7-syntax AndAnd",
        "ps7-syntax PipelineChainAst",
        "ps7-syntax QuestionDot",
        "ps7-syntax QuestionQuestion",
        "ps7-syntax TernaryExpressionAst",
      ].sort(),
    );
  });
});
