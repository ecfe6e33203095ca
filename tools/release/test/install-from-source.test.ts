import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  buildAndPackCommands,
  installCommand,
  publishedPackageNames,
  tarballsFor,
} from "../install-from-source.mjs";

const script = fileURLToPath(new URL("../install-from-source.mjs", import.meta.url));

describe("installing the CLI before the first release (install-from-source.mjs)", () => {
  it("packs every published package and installs all the tarballs in one npm install --global", () => {
    const names = publishedPackageNames();
    expect(names).toContain("@csi-proxy/cli");
    expect(names).not.toContain("@csi-proxy/release");
    const pack = mkdtempSync(join(tmpdir(), "csi-pack-names-"));
    try {
      for (const n of names)
        writeFileSync(join(pack, `${n.slice(1).replace("/", "-")}-0.1.0.tgz`), "");
      const tarballs = tarballsFor(pack, names);
      expect(tarballs).toHaveLength(names.length);
      const [npm, args] = installCommand(tarballs, "/opt/cli");
      expect(npm).toBe("npm");
      expect(args.slice(0, 2)).toEqual(["install", "--global"]);
      expect(args).toEqual(expect.arrayContaining(["--prefix", "/opt/cli", ...tarballs]));
      expect(buildAndPackCommands(pack, false)).toEqual([
        ["pnpm", ["-r", "--filter", "./packages/*", "pack", "--pack-destination", pack]],
      ]);
      // A package missing from the pack would install the CLI against the registry's copy.
      expect(() => tarballsFor(pack, [...names, "@csi-proxy/absent"])).toThrow(
        /one tarball per package/,
      );
    } finally {
      rmSync(pack, { recursive: true, force: true });
    }
  });

  // The real thing, as docs/guides/releasing.md tells a user to do it (the packages are built by
  // turbo before this test: @csi-proxy/cli is a dev dependency). Needs the npm registry for the
  // third-party dependencies, as tools/consumer does.
  it("gives a working csi-proxy --help from the packed tarballs", () => {
    const prefix = mkdtempSync(join(tmpdir(), "csi-global-"));
    try {
      mkdirSync(join(prefix, "lib"), { recursive: true });
      const install = spawnSync(process.execPath, [script, "--no-build", "--prefix", prefix], {
        encoding: "utf8",
      });
      expect(install.status, install.stderr + install.stdout).toBe(0);
      const bin =
        process.platform === "win32"
          ? join(prefix, "csi-proxy.cmd")
          : join(prefix, "bin", "csi-proxy");
      const help = spawnSync(bin, ["--help"], {
        encoding: "utf8",
        shell: process.platform === "win32",
      });
      expect(help.status, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^Usage: csi-proxy /);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  });
});
