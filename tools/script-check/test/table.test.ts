import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { commonCommands, windowsCmdlets } from "../src/index.js";

// The reference the table was transcribed from, where the workspace keeps it (docs/design links it).
const reference = fileURLToPath(
  new URL("../../../../shared/reference/windows-cmdlets.md", import.meta.url),
);

const inScope = [
  "Get-Disk",
  "Initialize-Disk",
  "Set-Disk",
  "Update-HostStorageCache",
  "Get-Partition",
  "New-Partition",
  "Resize-Partition",
  "Get-PartitionSupportedSize",
  "Add-PartitionAccessPath",
  "Remove-PartitionAccessPath",
  "Get-Volume",
  "Format-Volume",
  "Write-VolumeCache",
  "Get-StorageSetting",
  "Set-StorageSetting",
  "Get-SmbGlobalMapping",
  "New-SmbGlobalMapping",
  "Remove-SmbGlobalMapping",
  "New-IscsiTargetPortal",
  "Get-IscsiTargetPortal",
  "Remove-IscsiTargetPortal",
  "Update-IscsiTargetPortal",
  "Get-IscsiTarget",
  "Connect-IscsiTarget",
  "Disconnect-IscsiTarget",
  "Get-IscsiSession",
  "Register-IscsiSession",
  "Unregister-IscsiSession",
  "Get-IscsiConnection",
  "Set-IscsiChapSecret",
  "Get-CimInstance",
  "Invoke-CimMethod",
  "Get-Service",
  "Start-Service",
  "Stop-Service",
];

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) =>
    seen.has(v.toLowerCase()) ? true : (seen.add(v.toLowerCase()), false),
  );
}

describe("the signature tables", () => {
  const names = windowsCmdlets.cmdlets.map((c) => c.name);

  it("cover every cmdlet the reference documents in §2–§6, once", () => {
    expect([...names].sort()).toEqual([...inScope].sort());
    expect(duplicates(names)).toEqual([]);
    if (existsSync(reference)) {
      const text = readFileSync(reference, "utf8");
      const body = text.slice(text.indexOf("\n## 2."), text.indexOf("\n## 7."));
      const headings = [...body.matchAll(/^### (\S+)$/gm)].map((m) => m[1]);
      // Entries with a "source" were added by hand from Microsoft's docs, not from the reference.
      const transcribed = windowsCmdlets.cmdlets.filter((c) => !("source" in c)).map((c) => c.name);
      expect(headings.sort()).toEqual(transcribed.sort());
    }
  });

  it("have no duplicate parameter names or aliases within a cmdlet", () => {
    for (const c of windowsCmdlets.cmdlets) {
      const all = [
        ...c.parameters,
        ...(c.cdxml ? windowsCmdlets.cdxmlParameters : []),
        ...(c.shouldProcess ? windowsCmdlets.shouldProcessParameters : []),
        ...commonCommands.commonParameters,
        ...commonCommands.ps7OnlyCommonParameters,
      ];
      expect(duplicates(all.flatMap((p) => [p.name, ...p.aliases])), c.name).toEqual([]);
    }
    for (const c of commonCommands.commands) {
      const all = [...c.parameters, ...commonCommands.commonParameters];
      expect(duplicates(all.flatMap((p) => [p.name, ...p.aliases])), c.name).toEqual([]);
      expect(
        c.parameters.filter((p) => c.ps7OnlyParameters.includes(p.name)),
        c.name,
      ).toEqual([]);
    }
  });

  it("put every parameter in declared sets, with a declared default set", () => {
    for (const c of windowsCmdlets.cmdlets) {
      expect(c.parameterSets, c.name).toContain(c.defaultParameterSet);
      expect(duplicates(c.parameterSets), c.name).toEqual([]);
      for (const p of c.parameters) {
        const sets = Object.keys(p.sets);
        expect(sets.length, `${c.name} -${p.name}`).toBeGreaterThan(0);
        expect(c.parameterSets, `${c.name} -${p.name}`).toEqual(expect.arrayContaining(sets));
      }
    }
  });

  it("know the documented specifics the scripts rely on", () => {
    const cmdlet = (name: string) => windowsCmdlets.cmdlets.find((c) => c.name === name);
    const param = (c: string, p: string) => cmdlet(c)?.parameters.find((x) => x.name === p);
    expect(param("Get-Disk", "Number")).toMatchObject({ aliases: ["DeviceId"], position: 0 });
    expect(param("Get-Partition", "PartitionNumber")?.aliases).toEqual(["Number"]);
    expect(param("New-Partition", "DriveLetter")?.aliases).toEqual(["NewDriveLetter"]);
    expect(param("Get-CimInstance", "ResourceUri")?.sets).toMatchObject({
      ResourceUriSessionSet: { mandatory: true },
      QuerySessionSet: { mandatory: false },
    });
    expect(cmdlet("Format-Volume")).toMatchObject({ cdxml: true, shouldProcess: true });
    expect(cmdlet("Get-Disk")).toMatchObject({ cdxml: true, shouldProcess: false });
    expect(cmdlet("Get-CimInstance")).toMatchObject({ cdxml: false, shouldProcess: false });
    expect(cmdlet("Invoke-CimMethod")).toMatchObject({ cdxml: false, shouldProcess: true });
    expect(param("Invoke-CimMethod", "MethodName")).toMatchObject({
      aliases: ["Name"],
      position: 2,
    });
    expect(cmdlet("Stop-Service")).toMatchObject({ cdxml: false, shouldProcess: true });
  });

  it("list only commands common to Windows PowerShell 5.1 and 7, apart from the Windows cmdlets", () => {
    const common = commonCommands.commands.map((c) => c.name.toLowerCase());
    expect(duplicates(common)).toEqual([]);
    expect(common.filter((c) => names.some((n) => n.toLowerCase() === c))).toEqual([]);
    expect(commonCommands.ps7OnlyCommands).toEqual(
      expect.arrayContaining(["Join-String", "Test-Json", "Get-Error"]),
    );
    for (const excluded of [...commonCommands.ps7OnlyCommands, "Invoke-Expression"]) {
      expect(common).not.toContain(excluded.toLowerCase());
    }
    for (const target of Object.values(commonCommands.aliases)) {
      expect(common).toContain(target.toLowerCase());
    }
  });
});
