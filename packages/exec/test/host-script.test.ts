import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { createPowerShell, ps, transportScripts, type ExecMode } from "../src/index.js";

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const modes: ExecMode[] = ["session", "spawn"];

describe("transportScripts", () => {
  it("keeps the bootstrap on one line, free of double quotes and $input", () => {
    // Windows command-line quoting mangles embedded double quotes; $input makes the host pre-read stdin.
    expect(transportScripts.bootstrap).not.toMatch(/"|\$input|\n/i);
  });

  it("keeps the host script ASCII, so no code page can mangle it", () => {
    expect(transportScripts.host).toMatch(/^[\t\n\r -~]*$/);
  });

  it("checks the language mode before anything that ConstrainedLanguage forbids", () => {
    // Under WDAC or AppLocker, -Command text runs in ConstrainedLanguage and the first method call fails.
    expect(transportScripts.bootstrap).toMatch(
      /^if \(\$ExecutionContext\.SessionState\.LanguageMode -ne 'FullLanguage'\) \{ 'CsiProxy\.LanguageMode ' \+ \$ExecutionContext\.SessionState\.LanguageMode; exit 86 \};\$s=\[Console\]::In/,
    );
  });

  it("answers a lone $null without ConvertTo-Json, which writes nothing for it on 5.1", () => {
    expect(transportScripts.host).toContain(
      "elseif ($csiOut.Count -eq 1 -and $null -eq $csiOut[0]) { $csiReply = 'r 1 bnVsbA==' }",
    );
    expect(Buffer.from("bnVsbA==", "base64").toString()).toBe("null");
  });
});

describeWithPwsh("the host script on real pwsh", (pwsh) => {
  const scratch = mkdtempSync(join(tmpdir(), "exec-host-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.each(modes)(
    "%s mode: a lone $null result is null under 5.1's ConvertTo-Json",
    async (mode) => {
      const shell = createPowerShell({
        executable: pwsh,
        mode,
        modules: [fixture("convertto-json-51.psm1")],
      });
      try {
        expect(await shell.run(ps("test.null")`$null`)).toBeNull();
        expect(
          await shell.run(ps("test.echo")`param($Value) , $Value`, { Value: null }),
        ).toBeNull();
        // The shim is in force: other results still go through it.
        expect(await shell.run(ps("test.one")`1`)).toBe(1);
      } finally {
        await shell.close();
      }
    },
  );

  it.each(modes)(
    "%s mode: ConstrainedLanguage (WDAC, AppLocker) is one clear FAILED_PRECONDITION",
    async (mode) => {
      // pwsh on Linux has no application control policy; set the mode first, as a policy would.
      const locked = join(scratch, `locked-${mode}`);
      writeFileSync(
        locked,
        [
          "#!/bin/bash",
          'args=("$@"); last=$((${#args[@]} - 1))',
          `args[$last]="\\$ExecutionContext.SessionState.LanguageMode='ConstrainedLanguage';\${args[$last]}"`,
          `exec '${pwsh}' "\${args[@]}"`,
          "",
        ].join("\n"),
      );
      chmodSync(locked, 0o755);
      const shell = createPowerShell({ executable: locked, mode });
      try {
        await expect(shell.run(ps("test.one")`1`)).rejects.toMatchObject({
          code: "FAILED_PRECONDITION",
          message: expect.stringMatching(
            /^PowerShell runs in ConstrainedLanguage mode .*needs FullLanguage/,
          ) as unknown,
        });
      } finally {
        await shell.close();
      }
    },
  );

  it("binds parameters named like a hashtable's own members (Keys, Values, Count)", async () => {
    const shell = createPowerShell({ executable: pwsh });
    try {
      const members = ps(
        "test.members",
      )`param($Keys, [string]$Values, $Count) @($Keys[0], $Values, $Count) -join ','`;
      expect(await shell.run(members, { Keys: ["k"], Values: "v", Count: 3 })).toBe("k,v,3");
    } finally {
      await shell.close();
    }
  });

  it("passes no call's value to a cmdlet, which module logging would record", async () => {
    // Every cmdlet the transport itself calls, each recorded with its arguments.
    const defined = new Set(
      [...transportScripts.host.matchAll(/function ([\w-]+)/g)].map((m) => m[1]),
    );
    const cmdlets = [
      ...new Set(transportScripts.host.match(/\b[A-Z][A-Za-z]+-[A-Z][A-Za-z]+\b/g)),
    ].filter((name) => !defined.has(name));
    expect(cmdlets).toContain("ConvertTo-Json");
    const record = join(scratch, "cmdlet-args.log");
    const shell = createPowerShell({
      executable: pwsh,
      modules: [fixture("record-cmdlet-args.psm1")],
      env: { CSI_TEST_RECORDED: cmdlets.join(","), CSI_TEST_RECORD: record },
    });
    const secrets = ["top-level-secret-5678", "nested-secret-1234", "listed-secret-9012"] as const;
    try {
      const lengths = await shell.run(
        ps(
          "test.secrets",
        )`param([string]$Password, $Options, $List) $Password.Length + $Options.inner.secret.Length + $List[0].Length`,
        { Password: secrets[0], Options: { inner: { secret: secrets[1] } }, List: [secrets[2]] },
      );
      expect(lengths).toBe(secrets.join("").length);
      // The recorder sees what a script hands a cmdlet itself: that is the script's to avoid.
      await shell.run(
        ps("test.leak")`param([string]$Token) $null = ConvertTo-Json -InputObject $Token`,
        {
          Token: "handed-to-a-cmdlet",
        },
      );
    } finally {
      await shell.close();
    }
    const recorded = readFileSync(record, "utf8");
    expect(recorded).toContain("ConvertTo-Json -InputObject handed-to-a-cmdlet");
    for (const secret of secrets) {
      expect(recorded).not.toContain(secret);
      expect(recorded).not.toContain(Buffer.from(secret).toString("base64"));
    }
  });
});
