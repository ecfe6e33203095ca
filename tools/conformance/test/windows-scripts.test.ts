import { createPowerShell } from "@csi-proxy/exec";
import { checkScript } from "@csi-proxy/script-check";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, expect, it } from "vitest";
import { windowsRunnerScripts } from "../src/windows-host.js";

describeWithPwsh("the runners that call windows/*.ps1", (pwsh) => {
  const shell = createPowerShell({ executable: pwsh });
  afterAll(() => shell.close());

  it("pass the script check (the .ps1 files themselves: tools/script-check/test/setup-scripts.test.ts)", async () => {
    for (const script of windowsRunnerScripts) {
      expect(await checkScript(shell, script.text), script.name).toEqual([]);
    }
  });

  it("bind every secret under a name @csi-proxy/exec redacts", () => {
    for (const script of windowsRunnerScripts) {
      const secretLike = [...script.text.matchAll(/\[string\]\$(\w+)/g)]
        .map((m) => m[1]!)
        .filter(
          (name) => /chap|smb|mutual/i.test(name) && !/user|root|tag|path|service/i.test(name),
        );
      for (const name of secretLike) expect(name, script.name).toMatch(/password|secret/i);
    }
  });
});
