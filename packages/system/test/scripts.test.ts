import { definedScripts, isScript } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { systemScripts } from "../src/index.js";

/**
 * Cmdlets the scripts may call and the parameters each really has that they may use
 * (windows-cmdlets.md §5 Get-CimInstance, §6 Get-Service/Stop-Service; Start-Sleep is core).
 */
const allowed: Record<string, readonly string[]> = {
  "Get-CimInstance": ["ClassName"],
  "Get-Service": ["Name"],
  "Stop-Service": ["Name", "NoWait"],
  "Start-Sleep": ["Milliseconds"],
};

const scripts = Object.entries(systemScripts);

/** Cmdlet invocations (Verb-Noun followed by its arguments up to the end of the statement). */
function invocations(text: string): { cmdlet: string; parameters: string[] }[] {
  const found: { cmdlet: string; parameters: string[] }[] = [];
  for (const match of text.matchAll(/\b([A-Z][a-z]+-[A-Z][A-Za-z]+)\b([^\n;|)}]*)/g)) {
    const parameters = [...(match[2] ?? "").matchAll(/\s-([A-Za-z]+)/g)].map((m) => m[1] ?? "");
    found.push({ cmdlet: match[1] ?? "", parameters });
  }
  return found;
}

describe("system scripts", () => {
  it("are constant ps scripts registered under system.*", () => {
    const registered = new Set(definedScripts());
    for (const [key, script] of scripts) {
      expect(isScript(script)).toBe(true);
      expect(script.name).toBe(`system.${key}`);
      expect(registered.has(script)).toBe(true);
    }
  });

  it.each(scripts)(
    "%s uses only Windows PowerShell 5.1 syntax and no environment reads",
    (_key, script) => {
      const code = script.text.replace(/#.*$/gm, "");
      expect(code).not.toMatch(/\$env:/i);
      expect(code).not.toMatch(/\?\?|\?\.|&&|\|\||\s\?\s[^:]*\s:\s/);
      expect(code).not.toMatch(/-AsArray|-Parallel|-AsHashtable|-EnumsAsStrings|-NoEnumerate/i);
      expect(code).not.toMatch(/\$IsWindows|\$IsLinux|\$PSStyle|Join-String|Test-Json|Get-Error/);
    },
  );

  it.each(scripts)("%s calls only known cmdlets with parameters they have", (_key, script) => {
    const calls = invocations(script.text.replace(/#.*$/gm, ""));
    expect(calls.length).toBeGreaterThan(0);
    for (const { cmdlet, parameters } of calls) {
      expect(Object.keys(allowed), cmdlet).toContain(cmdlet);
      for (const parameter of parameters)
        expect(allowed[cmdlet], `${cmdlet} -${parameter}`).toContain(parameter);
    }
  });

  it.each(scripts)("%s takes caller values only through its param() block", (key, script) => {
    const declared = /^\s*param\(([^)]*)\)/.exec(script.text)?.[1] ?? "";
    const names = [...declared.matchAll(/\$(\w+)/g)].map((m) => m[1]);
    const expected: Record<string, string[]> = {
      biosSerialNumber: [],
      getService: ["Name"],
      dependents: ["Name"],
      startService: ["Name", "TimeoutMs", "PollMs"],
      stopService: ["Name", "TimeoutMs", "PollMs"],
    };
    expect(names).toEqual(expected[key]);
  });

  it("stop never passes -Force, which would stop dependents with .NET's own 30 s waits", () => {
    expect(systemScripts.stopService?.text).not.toMatch(/-Force/i);
    expect(systemScripts.stopService?.text).toContain("Stop-Service -Name $Name -NoWait");
  });

  it("start asks with ServiceController.Start(), since Start-Service waits without a bound", () => {
    expect(systemScripts.startService?.text).toContain("$service.Start()");
    expect(systemScripts.startService?.text).not.toContain("Start-Service");
  });

  it("turns Status and StartType into integers explicitly", () => {
    for (const key of ["getService", "startService", "stopService", "dependents"]) {
      expect(systemScripts[key]?.text).toMatch(/\[int\]\$\w+\.Status/);
    }
  });
});
