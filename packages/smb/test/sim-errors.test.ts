import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { uncToLocal } from "@csi-proxy/winsim";
import { beforeEach, expect, it } from "vitest";
import { alice, bob, causeId, failure, useSmbSim } from "./sim-setup.js";

/** Whether PowerShell can turn the name into a Windows logon, as New-SmbGlobalMapping must. */
const splits = ps("smb.test.splits")`
param([string]$UserName)
$secure = ConvertTo-SecureString -String 'p' -AsPlainText -Force
try {
    $null = (New-Object -TypeName System.Management.Automation.PSCredential -ArgumentList $UserName, $secure).GetNetworkCredential()
    $true
} catch { $false }
`;

function expectNoPassword(error: unknown, ...passwords: string[]): void {
  const shown = inspect(error, { depth: null, showHidden: true });
  for (const password of passwords) expect(shown).not.toContain(password);
}

describeWithPwsh("Smb failures on the simulated host (session mode)", (pwsh) => {
  const h = useSmbSim(pwsh, "session");
  beforeEach(() => h().reset());

  it("reports a second user on one server (Windows error 1219) as CONFLICT and links nothing", async () => {
    const { smb } = h();
    await smb.newSmbGlobalMapping({ remotePath: h().shareFolder("\\\\fs1\\data"), ...alice });
    const localPath = h().local("pv-9");
    const error = await failure(
      smb.newSmbGlobalMapping({ remotePath: "\\\\fs1\\private", localPath, ...bob }),
    );
    expect(error.code).toBe("CONFLICT");
    expect(error.message).toMatch(/1219/);
    expect(causeId(error)).toBe("Windows System Error 1219,New-SmbGlobalMapping");
    expect(() => readFileSync(localPath)).toThrow(/ENOENT/);
    expectNoPassword(error, alice.password, bob.password);
  });

  it("reports a wrong password as PERMISSION_DENIED without the password anywhere", async () => {
    const password = "Wrong-Secret-Value-42";
    const error = await failure(
      h().smb.newSmbGlobalMapping({
        remotePath: "\\\\fs1\\data",
        username: alice.username,
        password,
      }),
    );
    expect(error.code).toBe("PERMISSION_DENIED");
    expect(causeId(error)).toBe("Windows System Error 1326,New-SmbGlobalMapping");
    expectNoPassword(error, password);
    const log = readFileSync(join(h().sim.dir, "calls.jsonl"), "utf8");
    expect(log).not.toContain(password);
    expect(log).toContain(JSON.stringify(alice.username).slice(1, -1));
    expect(readFileSync(join(h().sim.dir, "state.json"), "utf8")).not.toContain(password);
  });

  it("reports a share the user may not use as PERMISSION_DENIED (Windows error 5)", async () => {
    const error = await failure(
      h().smb.newSmbGlobalMapping({ remotePath: "\\\\fs1\\private", ...alice }),
    );
    expect(error.code).toBe("PERMISSION_DENIED");
    expect(causeId(error)).toBe("Windows System Error 5,New-SmbGlobalMapping");
  });

  it.each([
    ["an unknown share", "\\\\fs1\\nope\\pv-1", 67],
    ["an unknown server", "\\\\fs9\\data", 53],
  ])("reports %s as NOT_FOUND", async (_why, remotePath, code) => {
    const error = await failure(h().smb.newSmbGlobalMapping({ remotePath, ...alice }));
    expect(error.code).toBe("NOT_FOUND");
    expect(causeId(error)).toBe(`Windows System Error ${code},New-SmbGlobalMapping`);
    expect(h().sim.state().smb?.mappings).toEqual([]);
  });

  it("refuses up front exactly the logon names PowerShell's credential cannot split", async () => {
    const names = [
      "@corp",
      "CORP\\",
      "\\",
      "@",
      "@corp.com",
      "alice@",
      ".@",
      "a@b@c",
      "\\ ",
      "a.b@c",
    ];
    const verdicts = await Promise.all(
      names.map(async (username) => {
        const powershell = await h().shell.run<boolean>(splits, { UserName: username });
        const error = await h()
          .smb.newSmbGlobalMapping({ remotePath: "\\\\fs1\\data", username, password: "p" })
          .then(
            () => undefined,
            (e: unknown) => e as { code?: string },
          );
        return { username, powershell, refused: error?.code === "INVALID_ARGUMENT" };
      }),
    );
    for (const { username, powershell, refused } of verdicts)
      expect({ username, refused }).toEqual({ username, refused: !powershell });
    expect(verdicts.filter((v) => v.refused).length).toBeGreaterThan(0);
  });

  it.each([
    ["a path that is not UNC", { remotePath: "C:\\share", ...alice }],
    ["a device path", { remotePath: "\\\\?\\UNC\\fs1\\data", ...alice }],
    ["a '..' segment", { remotePath: "\\\\fs1\\data\\..\\x", ...alice }],
    ["a username without password", { remotePath: "\\\\fs1\\data", username: "x" }],
    ["a password without username", { remotePath: "\\\\fs1\\data", password: "p" }],
    [
      "a password with an empty username",
      { remotePath: "\\\\fs1\\data", username: "", password: "p" },
    ],
    ["a relative localPath", { remotePath: "\\\\fs1\\data", localPath: "rel/x", ...alice }],
    ["a non-boolean requirePrivacy", { remotePath: "\\\\fs1\\data", requirePrivacy: "yes" }],
  ])("rejects %s before any simulated call", async (_why, request) => {
    const error = await failure(
      h().smb.newSmbGlobalMapping(
        request as Parameters<ReturnType<typeof h>["smb"]["newSmbGlobalMapping"]>[0],
      ),
    );
    expect(error.code).toBe("INVALID_ARGUMENT");
    expectNoPassword(error, alice.password);
    expect(h().calls()).toEqual([]);
  });

  it("rejects a bad remove request and a non-empty folder at localPath without a simulated call", async () => {
    const { smb } = h();
    expect((await failure(smb.removeSmbGlobalMapping({ remotePath: "fs1/data" }))).code).toBe(
      "INVALID_ARGUMENT",
    );
    const localPath = h().local("busy");
    mkdirSync(localPath, { recursive: true });
    writeFileSync(join(localPath, "file"), "x");
    const error = await failure(
      smb.newSmbGlobalMapping({
        remotePath: h().shareFolder("\\\\fs1\\data"),
        localPath,
        ...alice,
      }),
    );
    expect(error.code).toBe("CONFLICT");
    expect(h().calls()).toEqual([]);
  });

  it("maps an injected New-SmbGlobalMapping error by its id, without the password", async () => {
    const { sim, smb } = h();
    sim.fault({
      command: "New-SmbGlobalMapping",
      match: { Credential: alice.username },
      action: "error",
      error: {
        message: `Multiple connections ... (${alice.username})`,
        errorId: "Windows System Error 1219",
      },
    });
    const error = await failure(
      smb.newSmbGlobalMapping({ remotePath: h().shareFolder("\\\\fs1\\data"), ...alice }),
    );
    expect(error.code).toBe("CONFLICT");
    expectNoPassword(error, alice.password);
    expect(
      h()
        .calls()
        .map((c) => c.outcome),
    ).toEqual(["ok", "fault"]);
    expect((await smb.newSmbGlobalMapping({ remotePath: "\\\\fs1\\data", ...alice })).mapping).toBe(
      "created",
    );
  });

  it("survives a PowerShell process killed mid-call; the retry maps the share", async () => {
    const { sim, smb } = h();
    const remotePath = h().shareFolder("\\\\fs1\\data");
    sim.fault({ command: "New-SmbGlobalMapping", action: "kill" });
    const error = await failure(smb.newSmbGlobalMapping({ remotePath, ...alice }));
    expect(error.code).toBe("PROCESS_EXITED");
    expectNoPassword(error, alice.password);
    expect(sim.state().smb?.mappings).toEqual([]);
    expect((await smb.newSmbGlobalMapping({ remotePath, ...alice })).mapping).toBe("created");
    expect(
      h()
        .calls()
        .map((c) => c.outcome),
    ).toEqual(["ok", "killed", "ok", "ok"]);
  });
});

// Upstream's integration test (csi-proxy-api.md §8 TestSMB), against the simulator.
const statusOf = ps("smb.test.statusOf")`
  param([string]$RemotePath)
  [string](Get-SmbGlobalMapping -RemotePath $RemotePath -ErrorAction Stop).Status
`;

const readThrough = ps("smb.test.readThrough")`
  param([string]$Path)
  Test-Path -LiteralPath $Path -PathType Leaf
`;

describeWithPwsh("upstream's TestSMB scenario on the simulated host", (pwsh) => {
  const h = useSmbSim(pwsh, "session");
  beforeEach(() => h().reset());

  it("maps \\\\host\\share as domain\\user, reads and writes through it, and removes it", async () => {
    const { sim, shell, smb } = h();
    const remotePath = h().shareFolder("\\\\fs1\\data");
    await smb.newSmbGlobalMapping({ remotePath, ...alice });
    expect(await shell.run(statusOf, { RemotePath: remotePath })).toContain("OK");
    writeFileSync(join(uncToLocal(sim, remotePath), "test.txt"), "hello");
    expect(await shell.run(readThrough, { Path: `${remotePath}\\test.txt` })).toBe(true);
    await smb.removeSmbGlobalMapping({ remotePath });
    const gone = await failure(shell.run(statusOf, { RemotePath: remotePath }));
    expect(causeId({ cause: gone })).toBe(
      "CmdletizationQuery_NotFound_RemotePath,Get-SmbGlobalMapping",
    );
    expect(await shell.run(readThrough, { Path: `${remotePath}\\test.txt` })).toBe(false);
  });
});
