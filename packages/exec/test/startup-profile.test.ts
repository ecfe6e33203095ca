// A corrupt start-up profile must not stop PowerShell (found in this project's CI): pwsh records a
// multi-core JIT profile in its cache folder (`StartupProfileData-NonInteractive`); processes
// started together corrupt it (PowerShell/PowerShell#26528), and every later pwsh then dies of
// SIGSEGV at start (dotnet/runtime#81799). The fixture is the file CI's pwsh 7.6.9 left: exec's
// processes must neither read it nor write over it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { createPowerShell, ps } from "../src/index.js";

const fixture = new URL("./fixtures/startup-profile-corrupt.gz", import.meta.url);
const answer = ps("test.startupProfile")`'started'`;

describeWithPwsh("a corrupt start-up profile in pwsh's cache folder", (pwsh) => {
  for (const mode of ["session", "spawn"] as const) {
    it(`is neither read nor rewritten (${mode} mode)`, async () => {
      const cache = mkdtempSync(join(tmpdir(), "csi-jit-profile-"));
      const profile = join(cache, "powershell", "StartupProfileData-NonInteractive");
      mkdirSync(join(cache, "powershell"));
      const corrupt = gunzipSync(readFileSync(fixture));
      writeFileSync(profile, corrupt);
      // pwsh's cache folder on Linux and macOS is $XDG_CACHE_HOME/powershell.
      const shell = createPowerShell({ executable: pwsh, mode, env: { XDG_CACHE_HOME: cache } });
      try {
        expect(await shell.run(answer, {}, { timeoutMs: 60_000 })).toBe("started");
      } finally {
        await shell.close();
      }
      expect(readFileSync(profile).equals(corrupt)).toBe(true);
      rmSync(cache, { recursive: true, force: true });
    });
  }
});
