import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import { refusal, releaseEnv, steps } from "../release.mjs";

const script = fileURLToPath(new URL("../release.mjs", import.meta.url));
const root = fileURLToPath(new URL("../../..", import.meta.url));
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs release.mjs with a fake `pnpm` first on PATH that logs each call (and fails on `failOn`). */
function release(env: Record<string, string>, failOn?: string) {
  const dir = mkdtempSync(join(tmpdir(), "csi-release-"));
  temps.push(dir);
  const log = join(dir, "calls.log");
  const fail = failOn === undefined ? "" : `case "$*" in *${failOn}*) exit 3;; esac\n`;
  writeFileSync(
    join(dir, "pnpm"),
    `#!/bin/sh\necho "$* pwsh=$CSI_PROXY_REQUIRE_PWSH provenance=$NPM_CONFIG_PROVENANCE" >> '${log}'\n${fail}`,
  );
  chmodSync(join(dir, "pnpm"), 0o755);
  const base = { ...process.env };
  delete base.GITHUB_ACTIONS;
  delete base.ACTIONS_ID_TOKEN_REQUEST_URL;
  delete base.CSI_PROXY_REQUIRE_PWSH;
  const result = spawnSync(process.execPath, [script], {
    env: { ...base, PATH: `${dir}${delimiter}${process.env.PATH ?? ""}`, ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const calls = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
  return { status: result.status, stderr: result.stderr, calls };
}

const inActions = { GITHUB_ACTIONS: "true", ACTIONS_ID_TOKEN_REQUEST_URL: "https://token" };

describe("pnpm release", () => {
  it("is the release script", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.release).toBe("node tools/release/release.mjs");
  });

  it("requires PowerShell in every step and asks npm for provenance", () => {
    expect(releaseEnv({})).toMatchObject({
      CSI_PROXY_REQUIRE_PWSH: "1",
      NPM_CONFIG_PROVENANCE: "true",
    });
    expect(steps.map(([, args]) => args.join(" "))).toEqual([
      "exec turbo run build test lint typecheck check:package",
      "exec changeset publish",
    ]);
  });

  it("refuses outside a GitHub Actions job that can sign provenance", () => {
    expect(refusal({})).toMatch(/provenance/);
    expect(refusal({ GITHUB_ACTIONS: "true" })).toMatch(/id-token: write/);
    expect(refusal(inActions)).toBeUndefined();
  });

  it("turbo hashes CSI_PROXY_REQUIRE_PWSH, so a run requiring PowerShell never replays one that skipped it", () => {
    const text = readFileSync(join(root, "turbo.json"), "utf8");
    const { config } = ts.parseConfigFileTextToJson("turbo.json", text) as {
      config: { globalEnv?: string[]; globalPassThroughEnv?: string[] };
    };
    expect(config.globalEnv).toContain("CSI_PROXY_REQUIRE_PWSH");
    expect(config.globalPassThroughEnv ?? []).not.toContain("CSI_PROXY_REQUIRE_PWSH");
  });

  describe.skipIf(process.platform === "win32")("run as a command (fake pnpm on PATH)", () => {
    it("locally: says why and runs nothing", () => {
      const { status, stderr, calls } = release({});
      expect(status).toBe(1);
      expect(stderr).toContain("Nothing was built or published");
      expect(calls).toEqual([]);
    });

    it("in CI: runs every check with PowerShell required, then publishes with provenance", () => {
      const { status, calls } = release(inActions);
      expect(status).toBe(0);
      expect(calls).toEqual([
        "exec turbo run build test lint typecheck check:package pwsh=1 provenance=true",
        "exec changeset publish pwsh=1 provenance=true",
      ]);
    });

    it("in CI: publishes nothing when a check fails", () => {
      const { status, calls } = release(inActions, "turbo");
      expect(status).toBe(3);
      expect(calls).toHaveLength(1);
    });
  });
});
