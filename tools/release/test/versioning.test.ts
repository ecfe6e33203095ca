import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import assembleReleasePlan from "@changesets/assemble-release-plan";
import { read } from "@changesets/config";
import { getPackages } from "@manypkg/get-packages";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

async function workspace() {
  const packages = await getPackages(root);
  const config = await read(root, packages);
  return { packages, config };
}

describe("release configuration", () => {
  it("versions every package independently", async () => {
    const { config } = await workspace();
    expect(config.fixed).toEqual([]);
    expect(config.linked).toEqual([]);
    expect(config.access).toBe("public");
    expect(config.updateInternalDependencies).toBe("patch");
    expect(config.privatePackages).toEqual({ version: false, tag: false });
  });

  it("publishes packages/*, never tools/*", async () => {
    const { packages } = await workspace();
    for (const pkg of packages.packages) {
      const isTool = relative(root, pkg.dir).startsWith("tools");
      expect(pkg.packageJson.private === true, pkg.packageJson.name).toBe(isTool);
    }
  });

  it("depends on @csi-proxy/exec as workspace:^ in dependencies, never as a peer", async () => {
    const { packages } = await workspace();
    for (const pkg of packages.packages.filter(
      (p) =>
        relative(root, p.dir).startsWith("packages") && p.packageJson.name !== "@csi-proxy/exec",
    )) {
      const json = JSON.parse(readFileSync(`${pkg.dir}/package.json`, "utf8")) as Record<
        string,
        Record<string, string> | undefined
      >;
      expect(json.dependencies?.["@csi-proxy/exec"], pkg.packageJson.name).toBe("workspace:^");
      expect(json.peerDependencies?.["@csi-proxy/exec"], pkg.packageJson.name).toBeUndefined();
    }
  });

  it("a changeset that touches one package releases that package alone", async () => {
    const { packages, config } = await workspace();
    const published = packages.packages.filter((p) => p.packageJson.private !== true);
    expect(published.length).toBeGreaterThan(0);
    // Packages nothing depends on are the API groups: a change to one must bump only it.
    const dependedOn = new Set(
      published.flatMap((p) => Object.keys(p.packageJson.dependencies ?? {})),
    );
    const leaves = published.filter((p) => !dependedOn.has(p.packageJson.name));
    for (const pkg of leaves.length > 0 ? leaves : published) {
      const name = pkg.packageJson.name;
      const plan = assembleReleasePlan(
        [{ id: "only-one", summary: "fix", releases: [{ name, type: "minor" }] }],
        packages,
        config,
        undefined,
      );
      expect(plan.releases.filter((r) => r.type !== "none").map((r) => [r.name, r.type])).toEqual([
        [name, "minor"],
      ]);
    }
  });
  it("a simulator minor does not take the server, its optional peer, to a major", async () => {
    const { packages, config } = await workspace();
    const plan = assembleReleasePlan(
      [{ id: "winsim", summary: "feat", releases: [{ name: "@csi-proxy/winsim", type: "minor" }] }],
      packages,
      config,
      undefined,
    );
    // Changesets majors every peer dependent of a minor unless the new version leaves no range.
    const server = plan.releases.find((r) => r.name === "@csi-proxy/server");
    expect(server?.type ?? "none").not.toBe("major");
    expect(plan.releases.find((r) => r.name === "@csi-proxy/winsim")?.newVersion).toBe("0.1.0");
  });
});
