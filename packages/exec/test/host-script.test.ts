import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { createPowerShell, ps, transportScripts, type ExecMode } from "../src/index.js";

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
});

describeWithPwsh("the host script on real pwsh", (pwsh) => {
  const scratch = mkdtempSync(join(tmpdir(), "exec-host-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
});
