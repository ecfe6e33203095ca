import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { sharedTest } from "../../../vitest.shared.js";
import { lintWorkflow, lintWorkflows, validateWorkflowSchema } from "../lint-workflows.mjs";
import { hostHookTimeoutMs } from "../src/create-host.js";
import { selectHost } from "../src/select.js";
import { fixtureTimeoutMs } from "../src/windows-host.js";
import {
  linuxOnlyReason,
  platformNeutralMarker,
  reviewedPlatformNeutral,
  windowsUnitTests,
} from "../windows-unit-tests.mjs";

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
    expect(kinds).toEqual(["expression", "schema", "syntax-check"]);
  });

  it("the schema check (action-validator) reports a value the workflow schema forbids", () => {
    const bad = [
      "on: push",
      "jobs:",
      "  a:",
      "    runs-on: windows-2025",
      "    timeout-minutes: soon",
      "    steps:",
      "      - run: echo",
    ].join("\n");
    expect(validateWorkflowSchema(bad, "bad.yml")).toMatchObject([
      { kind: "schema", message: expect.stringMatching(/at \/jobs\/a/) },
    ]);
    expect(validateWorkflowSchema(bad.replace("soon", "5"), "good.yml")).toEqual([]);
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

describe("the Windows unit-test gate (windows-unit-tests.mjs)", () => {
  const chosenFiles = () =>
    windowsUnitTests(join(root, "packages")).flatMap((c) => c.files.map((f) => join(c.dir, f)));

  // On Windows tmpdir() is C:\Users\...\Temp: not an absolute posix path, so a test that builds
  // posix path rules on it fails with INVALID_ARGUMENT (docs/guides/verifying-on-windows.md).
  it("chooses no file that would use posix paths on a Windows temp dir", () => {
    for (const file of chosenFiles()) {
      const text = readFileSync(file, "utf8");
      const posixOnTempDir = /posix/.test(text) && /tmpdir|mkdtemp/.test(text);
      expect(posixOnTempDir, file).toBe(false);
    }
    const chosen = new Set(chosenFiles().map((f) => f.slice(join(root, "packages").length + 1)));
    for (const linuxOnly of [
      "filesystem/test/filesystem.test.ts",
      "filesystem/test/sandbox.test.ts",
      "filesystem/test/strict-input.test.ts",
      "filesystem/test/deadlines.test.ts",
      "smb/test/link-host.test.ts",
    ])
      expect(chosen.has(linuxOnly), linuxOnly).toBe(false);
  });

  it("admits a new test that mentions posix or the temp dir only when it declares itself platform-neutral", () => {
    const dir = mkdtempSync(join(tmpdir(), "csi-gate-"));
    try {
      mkdirSync(join(dir, "pkg", "test"), { recursive: true });
      const files = {
        "plain.test.ts": 'it("adds", () => 1 + 1);',
        "posix.test.ts": 'const f = new Filesystem({ pathStyle: "posix" });',
        "temp.test.ts": 'const d = mkdtempSync(join(tmpdir(), "x"));',
        "declared.test.ts": `// ${platformNeutralMarker}\nnormalizePath("/a", { style: "posix" });`,
        "declared-temp.test.ts": `// ${platformNeutralMarker}\nconst d = mkdtempSync(join(tmpdir(), "x"));`,
        "posix-on-temp.test.ts": `// ${platformNeutralMarker}\nnew Filesystem({ pathStyle: "posix", allowedRoots: [tmpdir()] });`,
      };
      for (const [name, text] of Object.entries(files))
        writeFileSync(join(dir, "pkg", "test", name), text);
      const [pkg] = windowsUnitTests(dir);
      expect(pkg?.files).toEqual([
        "test/declared-temp.test.ts",
        "test/declared.test.ts",
        "test/plain.test.ts",
      ]);
      expect(Object.fromEntries(pkg?.skipped.map((s) => [s.file, s.reason]) ?? [])).toEqual({
        "test/posix-on-temp.test.ts": "drives posix paths on the OS temp dir",
        "test/posix.test.ts": `uses posix paths without "${platformNeutralMarker}"`,
        "test/temp.test.ts": `uses the OS temp dir without "${platformNeutralMarker}"`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reviewed platform-neutral files exist and still pass the temp-dir rule", () => {
    for (const name of Object.keys(reviewedPlatformNeutral)) {
      const text = readFileSync(join(root, "packages", name), "utf8");
      expect(linuxOnlyReason(name, text), name).toBeUndefined();
    }
  });
});

interface Step {
  name?: string;
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
}

describe("the windows workflow", () => {
  const workflow = parse(readFileSync(join(workflows, "windows.yml"), "utf8")) as {
    jobs: { conformance: { steps: Step[] } };
  };
  const steps = workflow.jobs.conformance.steps;
  const index = (pattern: RegExp) => {
    const i = steps.findIndex((s) => pattern.test(s.name ?? s.uses ?? ""));
    expect(i, String(pattern)).toBeGreaterThanOrEqual(0);
    return i;
  };
  const step = (pattern: RegExp) => steps[index(pattern)] as Step;

  it("builds, gates, provisions, maps the portal, runs the suite, inspects, tears down, uploads: in that order", () => {
    const order = [
      /^Build$/,
      /^Unit tests/,
      /^Provision/,
      /^iSCSI portal/,
      /^Conformance suite/,
      /^What the library sees/,
      /^Teardown/,
      /^actions\/upload-artifact@/,
    ].map(index);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("runs the conformance suite whatever the unit-test gate said, once the build succeeded", () => {
    expect(step(/^Build$/).id).toBe("build");
    expect(step(/^Conformance suite/).if).toBe(
      "${{ !cancelled() && steps.build.outcome == 'success' }}",
    );
    for (const name of [/^Provision/, /^iSCSI portal/])
      expect(step(name).if, String(name)).toBe("${{ !cancelled() }}");
    for (const name of [/^What the library sees/, /^Teardown/, /^actions\/upload-artifact@/])
      expect(step(name).if, String(name)).toBe("always()");
  });

  it("provisions the machine and maps the portal in Windows PowerShell, from checked-in scripts", () => {
    const provision = step(/^Provision/);
    const portal = step(/^iSCSI portal/);
    for (const s of [provision, portal]) expect(s.shell, s.name).toBe("powershell");
    expect(provision.run).toMatch(/tools\\conformance\\windows\\provision\.ps1/);
    expect(portal.run).toMatch(/tools\\conformance\\windows\\portal\.ps1 -Name csiconf-portal/);
    expect(portal.run).toMatch(/\$env:GITHUB_ENV .*'CSI_CONFORMANCE_ISCSI_PORTAL=' \+ \$portal/);
    for (const script of ["provision.ps1", "portal.ps1"])
      expect(readFileSync(join(root, "tools", "conformance", "windows", script), "utf8")).toMatch(
        /5\.1 syntax only/,
      );
  });

  it("keeps the iSCSI Target Server in the final teardown (no --uninstall-feature)", () => {
    expect(step(/^Teardown/).run).toBe("pnpm run teardown -- --stop-initiator");
    for (const s of steps) expect(s.run ?? "", s.name).not.toMatch(/--uninstall-feature/);
  });
});

describe("the suite's Windows fixture", () => {
  const source = (file: string) =>
    readFileSync(join(root, "tools", "conformance", "src", file), "utf8");

  it("runs in Windows PowerShell whatever the library is given", () => {
    for (const file of ["windows-host.ts", "teardown-cli.ts"]) {
      const shells = [...source(file).matchAll(/createPowerShell\(([^)]*)\)/g)].map((m) => m[1]);
      expect(shells, file).toEqual(["{ executable: fixtureExecutable }"]);
    }
    expect(source("windows-host.ts")).toMatch(
      /export const fixtureExecutable = "powershell\.exe";/,
    );
  });

  it("gives the suite's hooks the fixture's bound, not vitest's shared 3 minutes", () => {
    const windows = hostHookTimeoutMs(
      selectHost(
        { CSI_CONFORMANCE_HOST: "windows", CSI_CONFORMANCE_DISPOSABLE: "yes-destroy-this-machine" },
        "win32",
      ),
    );
    expect(windows).toBeGreaterThan(2 * fixtureTimeoutMs);
    expect(fixtureTimeoutMs).toBeGreaterThan(sharedTest.hookTimeout);
    expect(hostHookTimeoutMs(selectHost({}, "linux"))).toBeUndefined();
    const suite = readFileSync(
      join(root, "tools", "conformance", "test", "conformance.test.ts"),
      "utf8",
    );
    expect(suite).toMatch(/const hookTimeout = hostHookTimeoutMs\(selection\);/);
    expect([...suite.matchAll(/\}, hookTimeout\);/g)]).toHaveLength(2);
    expect(suite).toMatch(
      /beforeAll\(async \(\) => \{[^]*?\}, hookTimeout\);\s*afterAll\(async \(\) => \{[^]*?\}, hookTimeout\);/,
    );
  });

  it("waits for a mounted image's disk in setup.ps1 and grow-disk.ps1, never casting a missing number", () => {
    for (const script of ["setup.ps1", "grow-disk.ps1"]) {
      const text = readFileSync(join(root, "tools", "conformance", "windows", script), "utf8");
      expect(text, script).toMatch(/Wait-ConformanceImageDisk -ImagePath/);
      expect(text, script).not.toMatch(/\[int\]\(Get-DiskImage/);
    }
  });
});

describe("the release workflow", () => {
  const release = parse(readFileSync(join(workflows, "release.yml"), "utf8")) as {
    jobs: Record<
      string,
      {
        needs?: string;
        if?: string;
        outputs?: Record<string, string>;
        permissions?: Record<string, string>;
        environment?: { name: string };
        steps: (Step & { with?: Record<string, string> })[];
      }
    >;
  };

  it("publishes the API reference to GitHub Pages after a publish, built with `pnpm run docs`", () => {
    const { release: publish, "api-reference": pages } = release.jobs;
    expect(publish?.steps.find((s) => s.id === "changesets")?.uses).toMatch(/^changesets\/action@/);
    expect(publish?.outputs?.published).toBe("${{ steps.changesets.outputs.published }}");
    expect(pages).toMatchObject({
      needs: "release",
      if: "${{ needs.release.outputs.published == 'true' }}",
      permissions: { contents: "read", pages: "write", "id-token": "write" },
      environment: { name: "github-pages" },
    });
    const runs = pages?.steps.map((s) => s.run ?? s.uses ?? "") ?? [];
    // `pnpm docs` is pnpm's own command: it would succeed without building the reference.
    expect(runs).toContain("pnpm run docs");
    expect(runs).not.toContain("pnpm docs");
    const upload = pages?.steps.findIndex((s) =>
      s.uses?.startsWith("actions/upload-pages-artifact@"),
    );
    const deploy = pages?.steps.findIndex((s) => s.uses?.startsWith("actions/deploy-pages@"));
    expect(upload).toBeGreaterThan(runs.indexOf("pnpm run docs"));
    expect(deploy).toBeGreaterThan(upload ?? Infinity);
    expect(pages?.steps[upload ?? -1]?.with?.path).toBe("docs/api");
    const typedoc = JSON.parse(readFileSync(join(root, "typedoc.json"), "utf8")) as { out: string };
    expect(typedoc.out).toBe("docs/api");
  });
});
