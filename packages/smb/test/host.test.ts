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
    const { shell, calls } = fakeShell(undefined);
    await createPowerShellSmbHost(shell).newMapping({
      shareRoot: "\\\\srv\\share",
      username: "CONTOSO\\svc",
      password,
      requirePrivacy: true,
      replace: false,
    });
    const [call] = calls;
    expect(call?.script).toBe(smbScripts.newMapping);
    expect(call?.script.text).not.toContain(password);
    expect(call?.params).toEqual({
      ShareRoot: "\\\\srv\\share",
      UserName: "CONTOSO\\svc",
      Password: password,
      RequirePrivacy: true,
      Replace: false,
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

  it("binds no credential parameters when there is no user, and passes requirePrivacy and replace", async () => {
    const { shell, calls } = fakeShell(undefined);
    await createPowerShellSmbHost(shell).newMapping({
      shareRoot: "\\\\srv\\share",
      requirePrivacy: false,
      replace: true,
    });
    expect(calls[0]?.params).toEqual({
      ShareRoot: "\\\\srv\\share",
      UserName: undefined,
      Password: undefined,
      RequirePrivacy: false,
      Replace: true,
    });
  });

  it("reads a mapping's state whichever form Status takes", async () => {
    const { shell, calls } = fakeShell(
      undefined,
      { RemotePath: "\\\\srv\\share", LocalPath: "", Status: "OK", PathValid: true },
      { RemotePath: "\\\\SRV\\Share", LocalPath: "", Status: "0", PathValid: false },
      { RemotePath: "\\\\srv\\share", LocalPath: "G:", Status: "6", PathValid: null },
    );
    const host = createPowerShellSmbHost(shell);
    expect(await host.getMapping("\\\\srv\\share")).toBeUndefined();
    expect(await host.getMapping("\\\\srv\\share")).toEqual({
      remotePath: "\\\\srv\\share",
      localPath: undefined,
      status: "OK",
      statusCode: 0,
      pathValid: true,
    });
    expect(await host.getMapping("\\\\srv\\share")).toMatchObject({
      status: "OK",
      pathValid: false,
    });
    expect(await host.getMapping("\\\\srv\\share")).toEqual({
      remotePath: "\\\\srv\\share",
      localPath: "G:",
      status: "Unavailable",
      statusCode: 6,
      pathValid: undefined,
    });
    expect(calls.map((c) => c.params)).toEqual(
      Array.from({ length: 4 }, () => ({ ShareRoot: "\\\\srv\\share" })),
    );
    expect(calls.every((c) => c.script === smbScripts.getMapping)).toBe(true);
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
    const { shell } = fakeShell({ Status: "OK" }, { RemotePath: "x" }, { Removed: "1" });
    const host = createPowerShellSmbHost(shell);
    await expect(host.getMapping("\\\\a\\b")).rejects.toMatchObject({ code: "PARSE_FAILED" });
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
    expect(smbScripts.newMapping.text).toMatch(
      /param\(\[string\]\$ShareRoot, \[string\]\$UserName, \[string\]\$Password, \[bool\]\$RequirePrivacy, \[bool\]\$Replace\)/,
    );
  });

  it("avoid syntax Windows PowerShell 5.1 lacks", () => {
    for (const script of scripts) {
      expect(script.text).not.toMatch(/\?\?|\?\.|&&|\|\||-AsArray|-Parallel|-AsHashtable/);
    }
  });

  it("build the credential inside the script and remove before creating", () => {
    const text = smbScripts.newMapping.text;
    expect(text).toContain("ConvertTo-SecureString -String $Password -AsPlainText -Force");
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
