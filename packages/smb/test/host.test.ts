import type { Params, PowerShell, RunOptions, Script } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { createPowerShellSmbHost, Smb, smbScripts } from "../src/index.js";

interface Call {
  script: Script;
  params: Params | undefined;
  options: RunOptions | undefined;
}

/** A PowerShell that records what it is asked to run and answers from a queue. */
function fakeShell(...answers: unknown[]) {
  const calls: Call[] = [];
  const shell: PowerShell = {
    mode: "session",
    run<T>(script: Script, params?: Params, options?: RunOptions): Promise<T> {
      calls.push({ script, params, options });
      return Promise.resolve(answers.shift() as T);
    },
    warmUp: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return { shell, calls };
}

const password = "Pa55-w0rd' ; Remove-Item C:\\ -Recurse #";
const autoSecret = /password|passwd|secret|token|credential/i;

describe("the PowerShell-backed host", () => {
  it("passes the password only as a parameter marked secret", async () => {
    const { shell, calls } = fakeShell({ Outcome: "Created" });
    await createPowerShellSmbHost(shell).ensureMapping({
      shareRoot: "\\\\srv\\share",
      username: "CONTOSO\\svc",
      password,
      requirePrivacy: true,
    });
    const [call] = calls;
    expect(call?.script).toBe(smbScripts.ensureMapping);
    expect(call?.script.text).not.toContain(password);
    expect(call?.params).toEqual({
      ShareRoot: "\\\\srv\\share",
      UserName: "CONTOSO\\svc",
      Password: password,
      RequirePrivacy: true,
    });
    const secretNames = Object.entries(call?.params ?? {})
      .filter(([, value]) => value === password)
      .map(([name]) => name);
    expect(secretNames).toEqual(["Password"]);
    for (const name of secretNames) {
      const marked = autoSecret.test(name) || (call?.options?.secrets ?? []).includes(name);
      expect(marked).toBe(true);
    }
    // The user name is data, not a secret.
    expect(call?.options?.secrets).not.toContain("UserName");
  });

  it("binds no credential parameters when there is no user, and passes requirePrivacy", async () => {
    const { shell, calls } = fakeShell({ Outcome: "Recreated" });
    await createPowerShellSmbHost(shell).ensureMapping({
      shareRoot: "\\\\srv\\share",
      requirePrivacy: false,
    });
    expect(calls[0]?.params).toEqual({
      ShareRoot: "\\\\srv\\share",
      UserName: undefined,
      Password: undefined,
      RequirePrivacy: false,
    });
  });

  it("reads what the ensure script did", async () => {
    const { shell, calls } = fakeShell(
      { Outcome: "Created" },
      { Outcome: "Reused" },
      { Outcome: "Recreated" },
    );
    const host = createPowerShellSmbHost(shell);
    const request = { shareRoot: "\\\\srv\\share", requirePrivacy: true };
    expect(await host.ensureMapping(request)).toBe("created");
    expect(await host.ensureMapping(request)).toBe("reused");
    expect(await host.ensureMapping(request)).toBe("recreated");
    expect(calls.every((c) => c.script === smbScripts.ensureMapping)).toBe(true);
    expect(calls.every((c) => c.options?.secrets?.includes("Password") === true)).toBe(true);
  });

  it("lists mappings and counts removals", async () => {
    const { shell, calls } = fakeShell(
      [{ RemotePath: "\\\\a\\b", LocalPath: "", Status: "Disconnected" }],
      [],
      { Removed: 1 },
      { Removed: 0 },
    );
    const host = createPowerShellSmbHost(shell);
    expect(await host.listMappings()).toEqual([
      { remotePath: "\\\\a\\b", localPath: undefined, status: "Disconnected", statusCode: 2 },
    ]);
    expect(await host.listMappings()).toEqual([]);
    expect(await host.removeMapping("\\\\a\\b")).toBe(true);
    expect(await host.removeMapping("\\\\a\\b")).toBe(false);
    expect(calls.map((c) => c.script.name)).toEqual([
      "smb.listMappings",
      "smb.listMappings",
      "smb.removeMapping",
      "smb.removeMapping",
    ]);
  });

  it("fails with PARSE_FAILED on output it does not understand", async () => {
    const { shell } = fakeShell(
      undefined,
      { Outcome: "toString" },
      { RemotePath: "x" },
      { Removed: "1" },
    );
    const host = createPowerShellSmbHost(shell);
    const request = { shareRoot: "\\\\a\\b", requirePrivacy: true };
    await expect(host.ensureMapping(request)).rejects.toMatchObject({ code: "PARSE_FAILED" });
    await expect(host.ensureMapping(request)).rejects.toMatchObject({ code: "PARSE_FAILED" });
    await expect(host.listMappings()).rejects.toMatchObject({ code: "PARSE_FAILED" });
    await expect(host.removeMapping("\\\\a\\b")).rejects.toMatchObject({ code: "PARSE_FAILED" });
  });
});

describe("the scripts", () => {
  const scripts = Object.values(smbScripts);

  it("declare every parameter the host binds, and read no environment variable", () => {
    for (const script of scripts) {
      expect(script.text).toMatch(/^\s*param\(/);
      expect(script.text).not.toMatch(/\$env:/i);
    }
    expect(smbScripts.ensureMapping.text).toMatch(
      /param\(\[string\]\$ShareRoot, \[string\]\$UserName, \[string\]\$Password, \[bool\]\$RequirePrivacy\)/,
    );
  });

  it("avoid syntax Windows PowerShell 5.1 lacks", () => {
    for (const script of scripts) {
      expect(script.text).not.toMatch(/\?\?|\?\.|&&|\|\||-AsArray|-Parallel|-AsHashtable/);
    }
  });

  it("build the credential inside the script, test before reusing and remove before creating", () => {
    const text = smbScripts.ensureMapping.text;
    expect(text.match(/Get-SmbGlobalMapping/g)).toHaveLength(1);
    expect(text.indexOf("Test-Path")).toBeLessThan(text.indexOf("Remove-SmbGlobalMapping"));
    // The password reaches no cmdlet parameter (module logging records those, as text): it is
    // read only by .NET calls that build the SecureString.
    const uses = [...text.matchAll(/\$Password\b(.{0,16})/g)].map((m) => m[1]);
    expect(uses).toEqual([", [bool]$Require", ".ToCharArray()) "]);
    expect(text).not.toContain("ConvertTo-SecureString");
    expect(text).toContain("-Credential $credential -RequirePrivacy $RequirePrivacy");
    expect(text.indexOf("Remove-SmbGlobalMapping")).toBeLessThan(
      text.indexOf("New-SmbGlobalMapping"),
    );
  });
});

describe("Smb on a given shell", () => {
  it("runs its scripts on that shell and leaves closing it to the caller", async () => {
    const { shell, calls } = fakeShell([{ RemotePath: "\\\\a\\b", LocalPath: "", Status: "OK" }]);
    let closed = false;
    shell.close = () => {
      closed = true;
      return Promise.resolve();
    };
    const smb = new Smb({ shell });
    expect((await smb.listSmbGlobalMappings()).mappings).toEqual([
      { remotePath: "\\\\a\\b", status: "OK", statusCode: 0 },
    ]);
    expect(calls.map((c) => c.script.name)).toEqual(["smb.listMappings"]);
    await smb.close();
    expect(closed).toBe(false);
  });
});
