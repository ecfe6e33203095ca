import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { beforeEach, expect, it } from "vitest";
import {
  buildSmbState,
  setSmbMappingStatus,
  setSmbPassword,
  smbStatuses,
  uncToLocal,
  type SmbSpec,
} from "../src/index.js";
import { failure, useHost } from "./host.js";

const smb: SmbSpec = {
  servers: [
    {
      name: "fs1",
      accounts: { "CONTOSO\\alice": "alice-pw", "CONTOSO\\bob": "bob-pw" },
      shares: ["data", "logs", { name: "private", users: ["CONTOSO\\bob"] }],
    },
    { name: "10.0.0.9", accounts: { guest: "guest-pw" }, shares: ["plain"], encryption: false },
  ],
};

const newMapping = ps("winsim.test.newSmb")`
  param([string]$RemotePath, [string]$User, [string]$Password, [bool]$RequirePrivacy, [string]$LocalPath)
  $secure = ConvertTo-SecureString -String $Password -AsPlainText -Force
  $credential = New-Object -TypeName System.Management.Automation.PSCredential -ArgumentList $User, $secure
  $extra = @{}
  if ($LocalPath) { $extra.LocalPath = $LocalPath }
  $m = New-SmbGlobalMapping -RemotePath $RemotePath -Credential $credential -RequirePrivacy $RequirePrivacy @extra
  [pscustomobject]@{ Status = [string]$m.Status; Raw = $m.psBase.CimInstanceProperties['Status'].Value; LocalPath = $m.LocalPath; RequirePrivacy = $m.RequirePrivacy }
`;

const listMappings = ps("winsim.test.listSmb")`
  param()
  , @(Get-SmbGlobalMapping | ForEach-Object {
    [pscustomobject]@{
      RemotePath = $_.RemotePath; LocalPath = $_.LocalPath; Status = [string]$_.Status
      Raw = $_.psBase.CimInstanceProperties['Status'].Value; Types = @($_.PSObject.TypeNames)
    }
  })
`;

const getByPath = ps("winsim.test.getSmbByPath")`
  param([string]$RemotePath)
  @(Get-SmbGlobalMapping -RemotePath $RemotePath).Count
`;

const testPath = ps("winsim.test.testPath")`
  param([string]$LiteralPath, [string]$PathType)
  if ($PathType) { Test-Path -LiteralPath $LiteralPath -PathType $PathType } else { Test-Path -LiteralPath $LiteralPath }
`;

const testMixed = ps("winsim.test.testMixed")`
  param([string[]]$Paths)
  , @(Test-Path -LiteralPath $Paths)
  , @($Paths | Test-Path)
`;

const removeMapping = ps("winsim.test.removeSmb")`
  param([string]$RemotePath, [bool]$Force, [bool]$WhatIf, [bool]$Confirm)
  Get-SmbGlobalMapping -RemotePath $RemotePath | Remove-SmbGlobalMapping -Force:$Force -WhatIf:$WhatIf -Confirm:$Confirm
  @(Get-SmbGlobalMapping).Count
`;

const removeStale = ps("winsim.test.removeStale")`
  param([string]$RemotePath)
  $m = Get-SmbGlobalMapping -RemotePath $RemotePath
  Remove-SmbGlobalMapping -InputObject $m -Force
  Remove-SmbGlobalMapping -InputObject $m -Force
`;

const noCredential = ps("winsim.test.noCredential")`
  param([string]$RemotePath)
  New-SmbGlobalMapping -RemotePath $RemotePath -RequirePrivacy $true
`;

const alice = { User: "CONTOSO\\alice", Password: "alice-pw", RequirePrivacy: true };

describeWithPwsh("SMB global mappings", (pwsh) => {
  const host = useHost(pwsh, { systemDisk: false, smb });
  beforeEach(() => {
    host.sim.update((state) => (state.smb = buildSmbState(smb, host.sim.root)));
    host.sim.clearCalls();
    host.sim.clearFaults();
  });

  it("lists nothing, without an error, when there are no mappings", async () => {
    expect(await host.shell.run(listMappings)).toEqual([]);
  });

  it("creates a mapping that records user and privacy, and logs the credential as its user only", async () => {
    const made = await host.shell.run(newMapping, { RemotePath: "\\\\FS1\\Data", ...alice });
    expect(made).toEqual({ Status: "OK", Raw: 0, LocalPath: "", RequirePrivacy: true });
    const [mapping] = host.sim.state().smb?.mappings ?? [];
    expect(mapping).toMatchObject({
      remotePath: "\\\\FS1\\Data",
      user: "CONTOSO\\alice",
      requirePrivacy: true,
    });
    await host.shell.run(newMapping, {
      RemotePath: "\\\\fs1\\logs",
      ...alice,
      RequirePrivacy: false,
    });
    expect(host.sim.state().smb?.mappings[1]?.requirePrivacy).toBe(false);
    const calls = host.sim.calls().filter((c) => c.command === "New-SmbGlobalMapping");
    expect(calls[0]?.parameters).toEqual({
      RemotePath: "\\\\FS1\\Data",
      Credential: "CONTOSO\\alice",
      RequirePrivacy: true,
    });
    expect(readFileSync(join(host.sim.dir, "calls.jsonl"), "utf8")).not.toContain("alice-pw");
    expect(readFileSync(join(host.sim.dir, "state.json"), "utf8")).not.toContain("alice-pw");
  });

  it("shows every status by name with the raw CIM code underneath", async () => {
    await host.shell.run(newMapping, { RemotePath: "\\\\fs1\\data", ...alice });
    for (const [name, code] of Object.entries(smbStatuses)) {
      setSmbMappingStatus(host.sim, "\\\\fs1\\data", code);
      const [shown] = await host.shell.run<Record<string, unknown>[]>(listMappings);
      expect(shown).toMatchObject({ Status: name, Raw: code, LocalPath: "" });
      expect(shown?.Types).toEqual([
        "Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/SMB/MSFT_SmbGlobalMapping",
        "Microsoft.Management.Infrastructure.CimInstance#MSFT_SmbGlobalMapping",
        "Microsoft.Management.Infrastructure.CimInstance",
        "System.Object",
      ]);
    }
  });

  it.each([
    ["an unknown server", "\\\\fs9\\data", alice, 53, "The network path was not found."],
    ["an unknown share", "\\\\fs1\\nope", alice, 67, "The network name cannot be found."],
    [
      "a wrong password",
      "\\\\fs1\\data",
      { ...alice, Password: "nope" },
      1326,
      "The user name or password is incorrect.",
    ],
    [
      "an unknown user",
      "\\\\fs1\\data",
      { ...alice, User: "mallory" },
      1326,
      "The user name or password is incorrect.",
    ],
    ["a share the user may not use", "\\\\fs1\\private", alice, 5, "Access is denied."],
    [
      "privacy on a server without encryption",
      "\\\\10.0.0.9\\plain",
      { User: "guest", Password: "guest-pw", RequirePrivacy: true },
      5,
      "Access is denied.",
    ],
    [
      "a missing folder below the share",
      "\\\\fs1\\data\\missing",
      alice,
      67,
      "The network name cannot be found.",
    ],
    ["a path that is not UNC", "fs1\\data", alice, 87, "The parameter is incorrect."],
  ])("fails for %s", async (_why, path, creds, code, message) => {
    const error = await failure(host.shell.run(newMapping, { RemotePath: path, ...creds }));
    expect(error.record).toMatchObject({
      fullyQualifiedErrorId: `Windows System Error ${code},New-SmbGlobalMapping`,
      message,
      category: "NotSpecified",
      reason: "CimException",
      targetName: "MSFT_SmbGlobalMapping",
      statusCode: 1,
    });
    expect(host.sim.state().smb?.mappings).toEqual([]);
    expect(host.sim.calls().map((c) => c.outcome)).toEqual(["error"]);
  });

  it("maps without privacy on a server without encryption", async () => {
    const made = await host.shell.run(newMapping, {
      RemotePath: "\\\\10.0.0.9\\plain",
      User: "guest",
      Password: "guest-pw",
      RequirePrivacy: false,
    });
    expect(made).toMatchObject({ Status: "OK", RequirePrivacy: false });
  });

  it("refuses a second user on one server (1219), and the same share under another path", async () => {
    await host.shell.run(newMapping, { RemotePath: "\\\\fs1\\data", ...alice });
    const second = { User: "CONTOSO\\bob", Password: "bob-pw", RequirePrivacy: true };
    const error = await failure(
      host.shell.run(newMapping, { RemotePath: "\\\\FS1\\private", ...second }),
    );
    expect(error.record?.fullyQualifiedErrorId).toBe(
      "Windows System Error 1219,New-SmbGlobalMapping",
    );
    expect(error.record?.message).toMatch(
      /^Multiple connections to a server or shared resource by the same user/,
    );
    mkdirSync(uncToLocal(host.sim, "\\\\fs1\\data\\sub"), { recursive: true });
    const sub = await failure(
      host.shell.run(newMapping, { RemotePath: "\\\\fs1\\data\\sub", ...alice }),
    );
    expect(sub.record?.fullyQualifiedErrorId).toBe(
      "Windows System Error 1219,New-SmbGlobalMapping",
    );
    await host.shell.run(newMapping, { RemotePath: "\\\\fs1\\logs", ...alice });
    expect(host.sim.state().smb?.mappings.map((m) => m.remotePath)).toEqual([
      "\\\\fs1\\data",
      "\\\\fs1\\logs",
    ]);
  });

  it("refuses a duplicate mapping and a taken drive letter (85)", async () => {
    await host.shell.run(newMapping, { RemotePath: "\\\\fs1\\data", ...alice, LocalPath: "g:" });
    const again = await failure(
      host.shell.run(newMapping, { RemotePath: "\\\\FS1\\DATA\\", ...alice }),
    );
    expect(again.record?.fullyQualifiedErrorId).toBe(
      "Windows System Error 85,New-SmbGlobalMapping",
    );
    const letter = await failure(
      host.shell.run(newMapping, { RemotePath: "\\\\fs1\\logs", ...alice, LocalPath: "G:" }),
    );
    expect(letter.record?.message).toBe("The local device name is already in use.");
    expect(host.sim.state().smb?.mappings.map((m) => m.localPath)).toEqual(["G:"]);
  });

  it("requires -Credential, as the real cmdlet declares it mandatory", async () => {
    const error = await failure(host.shell.run(noCredential, { RemotePath: "\\\\fs1\\data" }));
    expect(error.record?.fullyQualifiedErrorId).toBe(
      "MissingMandatoryParameter,New-SmbGlobalMapping",
    );
    expect(host.sim.calls()).toEqual([]);
  });

  it("reports a -RemotePath query miss as the cmdletization not-found error, but not a wildcard miss", async () => {
    const error = await failure(host.shell.run(getByPath, { RemotePath: "\\\\fs1\\data" }));
    expect(error.record).toMatchObject({
      fullyQualifiedErrorId: "CmdletizationQuery_NotFound_RemotePath,Get-SmbGlobalMapping",
      message:
        "No MSFT_SmbGlobalMapping objects found with property 'RemotePath' equal to '\\\\fs1\\data'.  Verify the value of the property and retry.",
      category: "ObjectNotFound",
    });
    expect(await host.shell.run(getByPath, { RemotePath: "\\\\fs1\\*" })).toBe(0);
    await host.shell.run(newMapping, { RemotePath: "\\\\fs1\\data", ...alice });
    expect(await host.shell.run(getByPath, { RemotePath: "\\\\FS1\\DATA" })).toBe(1);
  });

  it("answers Test-Path on UNC paths from the mappings and share folders", async () => {
    expect(await host.shell.run(testPath, { LiteralPath: "\\\\fs1\\data" })).toBe(false);
    await host.shell.run(newMapping, { RemotePath: "\\\\fs1\\data", ...alice });
    const share = uncToLocal(host.sim, "\\\\fs1\\data");
    writeFileSync(join(share, "hello.txt"), "hi");
    expect(await host.shell.run(testPath, { LiteralPath: "\\\\FS1\\Data\\" })).toBe(true);
    expect(
      await host.shell.run(testPath, { LiteralPath: "\\\\fs1\\data\\hello.txt", PathType: "Leaf" }),
    ).toBe(true);
    expect(
      await host.shell.run(testPath, {
        LiteralPath: "\\\\fs1\\data\\hello.txt",
        PathType: "Container",
      }),
    ).toBe(false);
    expect(await host.shell.run(testPath, { LiteralPath: "\\\\fs1\\data\\nope" })).toBe(false);
    expect(await host.shell.run(testPath, { LiteralPath: "\\\\fs1\\logs" })).toBe(false);
    setSmbMappingStatus(host.sim, "\\\\fs1\\data", "Disconnected");
    expect(await host.shell.run(testPath, { LiteralPath: "\\\\fs1\\data" })).toBe(false);
    expect(host.sim.calls().filter((c) => c.command === "Test-Path")).toHaveLength(7);
  });

  it("goes stale when the password changes: Status stays OK, Test-Path turns false", async () => {
    await host.shell.run(newMapping, { RemotePath: "\\\\fs1\\data", ...alice });
    setSmbPassword(host.sim, "fs1", "CONTOSO\\alice", "rotated-pw");
    const [shown] = await host.shell.run<Record<string, unknown>[]>(listMappings);
    expect(shown?.Status).toBe("OK");
    expect(await host.shell.run(testPath, { LiteralPath: "\\\\fs1\\data" })).toBe(false);
    const old = await failure(
      host.shell.run(newMapping, { RemotePath: "\\\\fs1\\logs", ...alice }),
    );
    expect(old.record?.fullyQualifiedErrorId).toBe(
      "Windows System Error 1326,New-SmbGlobalMapping",
    );
  });

  it("answers a mix of UNC and local paths in order, by parameter and from the pipeline", async () => {
    await host.shell.run(newMapping, { RemotePath: "\\\\fs1\\data", ...alice });
    const paths = ["\\\\fs1\\data", host.sim.root, "\\\\fs1\\logs", "/no/such/path"];
    expect(await host.shell.run(testMixed, { Paths: paths })).toEqual([
      [true, true, false, false],
      [true, true, false, false],
    ]);
  });

  it("passes every other Test-Path to the real cmdlet, unlogged", async () => {
    const dir = host.sim.root;
    expect(await host.shell.run(testPath, { LiteralPath: dir, PathType: "Container" })).toBe(true);
    expect(await host.shell.run(testPath, { LiteralPath: join(dir, "none") })).toBe(false);
    expect(await host.shell.run(testPath, { LiteralPath: "" })).toBe(false);
    expect(host.sim.calls()).toEqual([]);
  });

  it("removes piped mappings: -Force skips the prompt that a non-interactive host cannot show", async () => {
    const path = "\\\\fs1\\data";
    await host.shell.run(newMapping, { RemotePath: path, ...alice });
    const run = (Force: boolean, WhatIf: boolean, Confirm: boolean) =>
      host.shell.run(removeMapping, { RemotePath: path, Force, WhatIf, Confirm });
    expect(await run(true, true, false)).toBe(1);
    const prompt = await failure(run(false, false, true));
    expect(prompt.record?.message).toMatch(/NonInteractive mode/);
    expect(await run(true, false, true)).toBe(0);
    const removal = host.sim
      .calls()
      .filter((c) => c.command === "Remove-SmbGlobalMapping")
      .at(-1);
    expect(removal?.target).toEqual({ RemotePath: path, LocalPath: "" });
  });

  it("removes without -Force where ConfirmPreference is None, as the exec host sets it", async () => {
    await host.shell.run(newMapping, { RemotePath: "\\\\fs1\\data", ...alice });
    expect(
      await host.shell.run(removeMapping, {
        RemotePath: "\\\\fs1\\data",
        Force: false,
        WhatIf: false,
        Confirm: false,
      }),
    ).toBe(0);
  });

  it("fails to remove a mapping object that is already gone (2250)", async () => {
    await host.shell.run(newMapping, { RemotePath: "\\\\fs1\\data", ...alice });
    const error = await failure(host.shell.run(removeStale, { RemotePath: "\\\\fs1\\data" }));
    expect(error.record?.fullyQualifiedErrorId).toBe(
      "Windows System Error 2250,Remove-SmbGlobalMapping",
    );
  });

  it("injects faults into the SMB cmdlets, matched on the logged user name", async () => {
    host.sim.fault({
      command: "New-SmbGlobalMapping",
      match: { Credential: "CONTOSO\\alice" },
      action: "error",
      error: { message: "Generic failure", errorId: "HRESULT 0x80041001" },
    });
    const error = await failure(
      host.shell.run(newMapping, { RemotePath: "\\\\fs1\\data", ...alice }),
    );
    expect(error.record?.fullyQualifiedErrorId).toBe("HRESULT 0x80041001,New-SmbGlobalMapping");
    expect(host.sim.calls().map((c) => c.outcome)).toEqual(["fault"]);
    expect(host.sim.state().smb?.mappings).toEqual([]);
  });
});
