// Runs in Windows Node under Wine: the filesystem group's reparse-point reader, as the deployed
// server loads it, on names Wine can make (a folder, a file, a missing name). Usage:
// node.exe read.mjs <output.json> <path>...
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const [outputFile = "", ...paths] = process.argv.slice(2);
const { createWin32ReparseReader } = await import("@csi-proxy/filesystem");
const read = createWin32ReparseReader(require("koffi"));
const results = {};
for (const path of paths) {
  try {
    results[path] = { data: (await read(path)) ?? null };
  } catch (error) {
    results[path] = { code: error.code, win32Code: error.win32Code };
  }
}
writeFileSync(outputFile, JSON.stringify(results));
