// The bundle the executable runs (the Wine suite runs the executable itself: pnpm test:win32).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleServer, rewriteModule, runtimeFiles, serverDir } from "../bundle.mjs";
import { checkBlobMaker, seaConfig } from "../package.mjs";

const work = mkdtempSync(join(tmpdir(), "csi-bundle-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the server bundled for the executable", () => {
  it("routes import.meta.url and createRequire through the executable's hooks, and refuses what it cannot", () => {
    expect(
      rewriteModule(
        'const k = createRequire(import.meta.url)("koffi"); new URL("../proto/", import.meta.url);',
        "dist/koffi.js",
      ),
    ).toBe(
      'const k = globalThis.__csiProxySea.require("dist/koffi.js")("koffi"); new URL("../proto/", globalThis.__csiProxySea.moduleUrl("dist/koffi.js"));',
    );
    expect(() => rewriteModule("import.meta.dirname", "dist/x.js")).toThrow(/import\.meta/);
  });

  it("is one CommonJS script with koffi's Windows binary as the carried file and no simulator", async () => {
    const out = join(work, "main.cjs");
    const meta = await bundleServer(out);
    const inputs = Object.keys(meta.inputs);
    expect(inputs).toContain("csi-proxy-sea:koffi-native");
    expect(inputs.some((i) => i.endsWith("packages/server/dist/bin.js"))).toBe(true);
    expect(inputs.some((i) => i.includes("winsim"))).toBe(false);
    const code = readFileSync(out, "utf8");
    expect(code).not.toContain("import.meta");
    // Every server module that located a file or required koffi now asks the hooks.
    expect(code).toContain('globalThis.__csiProxySea.moduleUrl("dist/proto.js")');
    expect(code).toContain('globalThis.__csiProxySea.moduleUrl("dist/version.js")');
    expect(code).toContain('globalThis.__csiProxySea.require("dist/koffi.js")');
  });

  it("carries what the server reads at run time, named as in the package", () => {
    const names = runtimeFiles("/k/koffi.node").map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "package.json",
        "schema/policy.schema.json",
        "proto/filesystem/v1/api.proto",
        "koffi.node",
      ]),
    );
    expect(names.filter((n) => n.startsWith("proto/"))).toHaveLength(23);
    const manifest = JSON.parse(readFileSync(join(serverDir, "package.json"), "utf8")) as {
      version: string;
    };
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
    const config = seaConfig(
      "/w/main.cjs",
      "/w/sea.blob",
      runtimeFiles("/k/koffi.node"),
      "/w/l.json",
    );
    expect(config).toMatchObject({ useCodeCache: false, useSnapshot: false });
    expect(config.assets["koffi.node"]).toBe("/k/koffi.node");
  });

  it("makes its blob only with the Node line the executable runs", () => {
    expect(() => checkBlobMaker("v20.20.0")).not.toThrow();
    expect(() => checkBlobMaker("v22.11.0")).toThrow(/runs on Node 20\.20\.x/);
  });
});
