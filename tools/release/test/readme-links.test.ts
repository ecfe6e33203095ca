// A package's README is its page on the registry, where only absolute links work: a relative
// link (../../README.md) points into a repository the tarball does not carry.
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { getPackages } from "@manypkg/get-packages";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/** Every link target in a Markdown text: inline links and images, reference definitions, HTML. */
function linkTargets(markdown: string): string[] {
  const inline = [...markdown.matchAll(/\]\(\s*(?:<([^>]+)>|([^)\s]+))/g)];
  const definitions = [...markdown.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)];
  const html = [...markdown.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/g)];
  return [...inline, ...definitions, ...html].map((m) => m[1] ?? m[2] ?? "");
}

/** Whether a link works wherever the README is shown: absolute, or an anchor on the same page. */
function worksOnTheRegistry(target: string): boolean {
  return /^(https:\/\/|http:\/\/|mailto:|#)/.test(target);
}

async function publishedReadmes() {
  const { packages } = await getPackages(root);
  return packages
    .filter((p) => relative(root, p.dir).startsWith("packages"))
    .map((p) => {
      const manifest = p.packageJson as typeof p.packageJson & { repository?: { url?: string } };
      const repo = (manifest.repository?.url ?? "").replace(/^git\+/, "").replace(/\.git$/, "");
      return {
        name: p.packageJson.name,
        repo,
        readme: readFileSync(join(p.dir, "README.md"), "utf8"),
      };
    });
}

describe("every published package README", () => {
  it("links only absolutely (or to an anchor on the page), since the registry has no repository", async () => {
    const readmes = await publishedReadmes();
    expect(readmes.length).toBeGreaterThan(5);
    for (const { name, readme } of readmes) {
      expect(
        linkTargets(readme).filter((t) => !worksOnTheRegistry(t)),
        name,
      ).toEqual([]);
    }
  });

  it("links into this repository at paths that exist on main", async () => {
    for (const { name, repo, readme } of await publishedReadmes()) {
      expect(repo, name).toBe("https://github.com/csi-proxy-ts/csi-proxy-ts");
      const prefix = new RegExp(`^${repo.replace(/[.]/g, "\\.")}/(?:blob|tree)/main/([^#?]+)`);
      for (const target of linkTargets(readme)) {
        const path = prefix.exec(target)?.[1];
        if (path !== undefined)
          expect(existsSync(join(root, path)), `${name}: ${target}`).toBe(true);
      }
    }
  });

  it("links its API reference page, which the release workflow publishes with GitHub Pages", async () => {
    for (const { name, repo, readme } of await publishedReadmes()) {
      const [owner, project] = repo.split("/").slice(-2);
      const page = `https://${owner ?? ""}.github.io/${project ?? ""}/modules/${name.replace(/[@/]/g, "_")}.html`;
      expect(linkTargets(readme), name).toContain(page);
    }
  });

  it("the link check sees relative links in each form Markdown has", () => {
    const text = [
      "[a](../../README.md) ![b](./logo.png) [c](<../x y.md>)",
      "[ref]: ../exec/README.md",
      '<a href="../docs/x.md">x</a> [ok](https://example.com/a) [top](#install)',
    ].join("\n");
    expect(linkTargets(text).filter((t) => !worksOnTheRegistry(t))).toEqual([
      "../../README.md",
      "./logo.png",
      "../x y.md",
      "../exec/README.md",
      "../docs/x.md",
    ]);
  });
});
