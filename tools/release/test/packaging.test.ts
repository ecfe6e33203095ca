import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import assembleReleasePlan from "@changesets/assemble-release-plan";
import { read } from "@changesets/config";
import readChangesets from "@changesets/read";
import { getPackages } from "@manypkg/get-packages";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

async function published() {
  const packages = await getPackages(root);
  const list = packages.packages.filter((p) => relative(root, p.dir).startsWith("packages"));
  return { packages, list };
}

describe("what every published package ships", () => {
  it("its LICENSE (Apache-2.0) and NOTICE, the root's byte for byte", async () => {
    const license = readFileSync(join(root, "LICENSE"), "utf8");
    const notice = readFileSync(join(root, "NOTICE"), "utf8");
    expect(license).toContain(
      "Apache License\n                           Version 2.0, January 2004",
    );
    expect(notice).toContain("https://github.com/kubernetes-csi/csi-proxy");
    for (const pkg of (await published()).list) {
      const manifest = pkg.packageJson as typeof pkg.packageJson & { license?: string };
      expect(manifest.license, pkg.packageJson.name).toBe("Apache-2.0");
      expect(readFileSync(join(pkg.dir, "LICENSE"), "utf8"), pkg.packageJson.name).toBe(license);
      expect(readFileSync(join(pkg.dir, "NOTICE"), "utf8"), pkg.packageJson.name).toBe(notice);
    }
  });

  it("a CHANGELOG.md that changesets appends to, the sources its maps point at, and no tests", async () => {
    const { config } = ts.readConfigFile(join(root, "tsconfig.base.json"), (path) =>
      ts.sys.readFile(path),
    ) as {
      config: { compilerOptions: { sourceMap?: boolean; declarationMap?: boolean } };
    };
    const emitsMaps =
      config.compilerOptions.sourceMap === true || config.compilerOptions.declarationMap === true;
    for (const pkg of (await published()).list) {
      const { name } = pkg.packageJson;
      const files = (pkg.packageJson as { files?: string[] }).files;
      expect(files, name).toEqual(
        expect.arrayContaining(["dist", "CHANGELOG.md", "LICENSE", "NOTICE"]),
      );
      // Maps that name ../src/*.ts are only useful (and only valid, for publint) with src shipped.
      expect(files?.includes("src"), name).toBe(emitsMaps);
      expect(
        files?.some((f) => f.startsWith("test")),
        name,
      ).toBe(false);
      // changesets inserts each release below the first line, so that line must be the title.
      const changelog = readFileSync(join(pkg.dir, "CHANGELOG.md"), "utf8");
      expect(changelog.split("\n")[0], name).toBe(`# ${name}`);
    }
  });
});

describe("every package README", () => {
  it("installs every @csi-proxy package its examples import, and says ESM-only and which TS settings", async () => {
    for (const pkg of (await published()).list) {
      const readme = readFileSync(join(pkg.dir, "README.md"), "utf8");
      const installed = new Set(
        [...readme.matchAll(/^npm install (.+)$/gm)].flatMap((m) => (m[1] ?? "").split(/\s+/)),
      );
      const imported = new Set(
        [...readme.matchAll(/from "(@csi-proxy\/[a-z-]+)"/g)].map((m) => m[1]),
      );
      expect(installed, pkg.packageJson.name).toContain(pkg.packageJson.name);
      for (const name of imported) expect([...installed], pkg.packageJson.name).toContain(name);
      expect(readme, pkg.packageJson.name).toMatch(/ESM only/);
      expect(readme, pkg.packageJson.name).toMatch(/"module": "nodenext"/);
      expect(readme, pkg.packageJson.name).toMatch(/"moduleResolution": "bundler"/);
    }
  });
});

describe("the first release", () => {
  it("publishes 0.1.0 of every package never released, whatever the pending changesets", async () => {
    const { packages, list } = await published();
    const config = await read(root, packages);
    const changesets = await readChangesets(root);
    const plan = assembleReleasePlan(changesets, packages, config, undefined);
    // Never versioned: no changelog yet, or one with no release heading written by changesets.
    const unreleased = list.filter((p) => {
      const path = join(p.dir, "CHANGELOG.md");
      return !existsSync(path) || !/^## \d/m.test(readFileSync(path, "utf8"));
    });
    expect(unreleased.length).toBeGreaterThan(0);
    for (const pkg of unreleased) {
      const release = plan.releases.find((r) => r.name === pkg.packageJson.name);
      expect(release?.newVersion, pkg.packageJson.name).toBe("0.1.0");
    }
  });
});
