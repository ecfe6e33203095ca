import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { materialize, runtimeDigest, type RuntimeFile } from "../sea/runtime-files.js";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function base(): string {
  const dir = mkdtempSync(join(tmpdir(), "csi-runtime-"));
  temps.push(dir);
  return join(dir, "csi-proxy-server.runtime");
}

const files: RuntimeFile[] = [
  { name: "koffi.node", data: Buffer.from("MZ native") },
  { name: "proto/disk/v1/api.proto", data: Buffer.from('syntax = "proto3";') },
  { name: "package.json", data: Buffer.from('{"version":"0.1.0"}') },
];

describe("the executable's runtime files beside it", () => {
  it("are written once into a folder named by their digest, then used as they are", () => {
    const dir = materialize(base(), files);
    expect(dir.endsWith(runtimeDigest(files))).toBe(true);
    expect(readFileSync(join(dir, "proto", "disk", "v1", "api.proto"), "utf8")).toBe(
      'syntax = "proto3";',
    );
    expect(materialize(join(dir, ".."), files)).toBe(dir);
    // No temporary or stale folder is left beside it.
    expect(readdirSync(join(dir, ".."))).toEqual([runtimeDigest(files)]);
  });

  it("a file changed, truncated or removed on disk is written again before anything loads it", () => {
    const root = base();
    const dir = materialize(root, files);
    writeFileSync(join(dir, "koffi.node"), "planted");
    expect(readFileSync(join(materialize(root, files), "koffi.node"), "utf8")).toBe("MZ native");
    rmSync(join(dir, "package.json"));
    expect(readFileSync(join(materialize(root, files), "package.json"), "utf8")).toBe(
      '{"version":"0.1.0"}',
    );
    expect(readdirSync(root)).toEqual([runtimeDigest(files)]);
  });

  it("another build gets another folder; names that could leave the folder are refused", () => {
    const other = [{ name: "koffi.node", data: Buffer.from("MZ other") }];
    expect(runtimeDigest(other)).not.toBe(runtimeDigest(files));
    for (const name of ["../x", "/etc/x", "a/../../x", "a\\b", ""])
      expect(() => materialize(base(), [{ name, data: Buffer.from("") }]), name).toThrow(
        /not a runtime file name/,
      );
  });
});
