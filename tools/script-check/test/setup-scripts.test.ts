import { fileURLToPath } from "node:url";
import { createPowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, expect, it } from "vitest";
import { checkScript, checkSetupScripts, setupCmdlets, windowsCmdlets } from "../src/index.js";

const conformanceWindows = fileURLToPath(new URL("../../conformance/windows/", import.meta.url));

describeWithPwsh("the conformance suite's Windows setup and teardown scripts", (pwsh) => {
  const shell = createPowerShell({ executable: pwsh });
  afterAll(() => shell.close());

  it("pass the check, every line of every .ps1", async () => {
    const reports = await checkSetupScripts(shell, conformanceWindows);
    expect(reports.map((r) => r.file)).toEqual(
      expect.arrayContaining(["common.ps1", "grow-disk.ps1", "setup.ps1", "teardown.ps1"]),
    );
    for (const report of reports) expect(report.problems, report.file).toEqual([]);
  });

  it("would fail a setup script with a parameter the cmdlet lacks, or 7-only syntax", async () => {
    const bad =
      "New-IscsiServerTarget -TargetName x -InitiatorIds @('IQN:*') -EnableChap $true\n$a = $b ?? 1";
    const problems = await checkScript(shell, bad, { setup: true });
    expect(problems.map((p) => p.kind).sort()).toEqual(["ps7-syntax", "unknown-parameter"]);
    expect(problems.find((p) => p.kind === "unknown-parameter")).toMatchObject({
      command: "New-IscsiServerTarget",
      parameter: "EnableChap",
    });
  });

  it("keeps setup-only cmdlets out of library scripts", async () => {
    const problems = await checkScript(shell, "New-LocalUser -Name x -NoPassword");
    expect(problems).toMatchObject([{ kind: "unknown-command", command: "New-LocalUser" }]);
  });
});

it("cites a Microsoft documentation page for every setup-only cmdlet, none of which the library table has", () => {
  const library = new Set(windowsCmdlets.cmdlets.map((c) => c.name.toLowerCase()));
  for (const c of setupCmdlets.cmdlets) {
    expect(c.source, c.name).toMatch(/^https:\/\/learn\.microsoft\.com\/powershell\/module\//);
    expect(library.has(c.name.toLowerCase()), c.name).toBe(false);
  }
  expect(setupCmdlets.nativeCommands.map((n) => n.name)).toEqual(["diskpart.exe"]);
});
