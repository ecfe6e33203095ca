import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createPowerShell, definedScripts, transportScripts } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkScript } from "../src/index.js";

const packagesDir = fileURLToPath(new URL("../../../packages/", import.meta.url));

/** Built entries of the published packages; importing them registers their `ps` scripts. */
function builtEntries(): string[] {
  return readdirSync(packagesDir)
    .filter((name) => existsSync(join(packagesDir, name, "package.json")))
    .map((name) => join(packagesDir, name, "dist", "index.js"))
    .filter((entry) => existsSync(entry));
}

describeWithPwsh("every script of every package passes the check", (pwsh) => {
  const shell = createPowerShell({ executable: pwsh });
  afterAll(() => shell.close());
  beforeAll(async () => {
    // By file path, so packages need no dependency link to be checked.
    for (const entry of builtEntries()) await import(pathToFileURL(entry).href);
  });

  it("finds the built packages, exec at least", () => {
    expect(builtEntries()).toContain(join(packagesDir, "exec", "dist", "index.js"));
  });

  it("the transport's host script and bootstrap", async () => {
    expect(await checkScript(shell, transportScripts.host)).toEqual([]);
    expect(await checkScript(shell, transportScripts.bootstrap)).toEqual([]);
  });

  it("every script the packages define", async () => {
    const scripts = definedScripts().filter(
      (s) => !s.name.startsWith("tools.") && !s.name.startsWith("test."),
    );
    console.info(
      `checked ${scripts.length} package scripts: ${scripts.map((s) => s.name).join(", ")}`,
    );
    for (const script of scripts) {
      expect(await checkScript(shell, script.text), script.name).toEqual([]);
    }
  });
});
