import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createPowerShell } from "@csi-proxy/exec";
import { checkScript } from "@csi-proxy/script-check";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, expect, it } from "vitest";
import { parse } from "yaml";
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

  // Their only unchecked parts: running a checked-in script by path, and the runner's GITHUB_ENV.
  it("the workflow's Windows PowerShell steps pass the script check too", async () => {
    const workflow = fileURLToPath(
      new URL("../../../.github/workflows/windows.yml", import.meta.url),
    );
    const steps = (
      parse(readFileSync(workflow, "utf8")) as {
        jobs: { conformance: { steps: { name?: string; shell?: string; run?: string }[] } };
      }
    ).jobs.conformance.steps.filter((s) => s.shell === "powershell");
    expect(steps.length).toBeGreaterThanOrEqual(2);
    for (const step of steps) {
      const problems = await checkScript(shell, step.run ?? "", { setup: true });
      const unexpected = problems.filter(
        (p) =>
          !(
            p.kind === "unknown-command" &&
            /^\.\\tools\\conformance\\windows\\\w+\.ps1$/.test(p.command ?? "")
          ) && !(p.kind === "env-read" && /GITHUB_ENV/.test(p.detail)),
      );
      expect(unexpected, step.name).toEqual([]);
    }
  });
});
