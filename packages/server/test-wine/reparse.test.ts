// The filesystem group's reparse-point reader (FSCTL_GET_REPARSE_POINT through koffi, issue #33)
// in Windows Node under Wine: an implementation of kernel32 we did not write opens each name with
// FILE_FLAG_OPEN_REPARSE_POINT and answers GetFileInformationByHandleEx(FileAttributeTagInfo).
// Wine makes no NTFS junctions or symbolic links, so what a reparse point reads as is not shown
// here (test/reparse.test.ts parses the buffers; the Windows workflow reads real ones).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { removeScratch, scratch, spawnWin, winPath, wineSetup } from "./wine.js";

describe("the reparse-point reader under Wine", () => {
  const setup = wineSetup();
  afterAll(removeScratch);

  it("reads a folder and a file as no reparse point, and a missing name as ENOENT", async () => {
    const dir = scratch();
    const folder = join(dir, "folder");
    mkdirSync(folder);
    writeFileSync(join(dir, "file.txt"), "x");
    // Beside the deployed server, so it resolves @csi-proxy/filesystem and koffi from there.
    const script = join(setup.app, "wine-client", "reparse-read.mjs");
    mkdirSync(join(setup.app, "wine-client"), { recursive: true });
    copyFileSync(fileURLToPath(new URL("reparse/read.mjs", import.meta.url)), script);
    const output = join(dir, "out.json");
    const names = [folder, join(dir, "file.txt"), join(dir, "missing"), join(dir, "missing", "x")];
    const proc = spawnWin(setup, [winPath(script), winPath(output), ...names.map(winPath)], {
      timeoutMs: 60_000,
      dir,
    });
    expect(await proc.exited, proc.stderr()).toBe(0);
    const results = JSON.parse(readFileSync(output, "utf8")) as Record<string, unknown>;
    expect(results[winPath(folder)]).toEqual({ data: null });
    expect(results[winPath(join(dir, "file.txt"))]).toEqual({ data: null });
    expect(results[winPath(join(dir, "missing"))]).toEqual({ code: "ENOENT", win32Code: 2 });
    expect(results[winPath(join(dir, "missing", "x"))]).toEqual({ code: "ENOENT", win32Code: 3 });
  });
});
