// The pieces of `pnpm release:rehearsal` (rehearsal.mjs) that decide what it proves; the
// rehearsal itself publishes to a local Verdaccio and runs in .ci/run.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { movedVersions, verdaccioConfig, withoutProvenance } from "../rehearsal.mjs";

const root = new URL("../../../", import.meta.url);
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("pnpm release:rehearsal", () => {
  it("is run by .ci/run, after the suites", () => {
    const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts["release:rehearsal"]).toBe("node tools/release/rehearsal.mjs");
    expect(readFileSync(new URL(".ci/run", root), "utf8")).toMatch(/^pnpm release:rehearsal$/m);
  });

  it("serves @csi-proxy/* only from what it published: a name on npm never stands in", () => {
    const config = parse(verdaccioConfig("/tmp/s", "https://registry.npmjs.org/")) as {
      packages: Record<string, { proxy?: string; publish?: string }>;
      uplinks: Record<string, { url: string }>;
    };
    expect(config.packages["@csi-proxy/*"]).toEqual({
      access: "$all",
      publish: "$authenticated",
    });
    expect(config.packages["**"]?.proxy).toBe("npmjs");
    expect(config.uplinks.npmjs?.url).toBe("https://registry.npmjs.org/");
  });

  it("names the packages whose version moved", () => {
    const before = { "@csi-proxy/disk": "0.1.0", "@csi-proxy/exec": "0.1.0" };
    expect(movedVersions(before, { ...before, "@csi-proxy/disk": "0.1.1" })).toEqual([
      "@csi-proxy/disk",
    ]);
    expect(movedVersions(before, before)).toEqual([]);
  });

  it("differs from the workflow only by provenance, which only GitHub Actions can sign", () => {
    const repo = mkdtempSync(join(tmpdir(), "csi-rehearse-"));
    temps.push(repo);
    const manifest = {
      name: "@csi-proxy/disk",
      version: "0.1.0",
      publishConfig: { access: "public", provenance: true },
    };
    mkdirSync(join(repo, "packages", "disk"), { recursive: true });
    writeFileSync(join(repo, "packages", "disk", "package.json"), JSON.stringify(manifest));
    withoutProvenance(repo);
    expect(
      JSON.parse(readFileSync(join(repo, "packages", "disk", "package.json"), "utf8")),
    ).toEqual({ ...manifest, publishConfig: { access: "public" } });
  });
});
