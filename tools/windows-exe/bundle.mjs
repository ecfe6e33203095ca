// The server as one CommonJS script for Node's single executable applications (esbuild), and the
// runtime files the executable carries beside it as assets (sea/runtime-files.ts writes them out).
import { createRequire } from "node:module";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = fileURLToPath(new URL(".", import.meta.url));
export const serverDir = fileURLToPath(new URL("../../packages/server/", import.meta.url));
const hooks = "globalThis.__csiProxySea";

/**
 * A server module's source with `createRequire(import.meta.url)` and `import.meta.url` replaced by
 * the executable's hooks (sea/hooks.ts), for `path` (`dist/proto.js`, relative to the package).
 */
export function rewriteModule(source, path) {
  const name = JSON.stringify(path);
  const rewritten = source
    .replaceAll("createRequire(import.meta.url)", `${hooks}.require(${name})`)
    .replaceAll("import.meta.url", `${hooks}.moduleUrl(${name})`);
  if (rewritten.includes("import.meta"))
    throw new Error(`${path} uses import.meta in a way the executable cannot serve`);
  return rewritten;
}

const seaPlugin = {
  name: "csi-proxy-sea",
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/]server[\\/]dist[\\/].*\.js$/ }, (args) => {
      const path = relative(serverDir, args.path).split(sep).join("/");
      return { contents: rewriteModule(readFileSync(args.path, "utf8"), path), loader: "js" };
    });
    // The bin is run for its effect; the package says "sideEffects": false for its library use.
    b.onResolve({ filter: /[\\/]dist[\\/]bin\.js$/ }, (args) => ({
      path: join(args.resolveDir, args.path),
      sideEffects: true,
    }));
    // The koffi the server depends on (sea/setup.ts names it).
    b.onResolve({ filter: /^koffi$/ }, () => ({
      path: createRequire(join(serverDir, "package.json")).resolve("koffi"),
    }));
    // koffi requires its platform package by name; on win32-x64 that is the binary we carry.
    b.onResolve({ filter: /^@koromix\/koffi-/ }, (args) =>
      args.path === "@koromix/koffi-win32-x64"
        ? { path: "koffi-native", namespace: "csi-proxy-sea" }
        : { path: args.path, external: true },
    );
    b.onLoad({ filter: /^koffi-native$/, namespace: "csi-proxy-sea" }, () => ({
      contents: `module.exports = ${hooks}.koffiNative();`,
      loader: "js",
    }));
  },
};

/** Bundles sea/entry.ts into `outfile`; fails on any warning (one is a module the bundle lacks). */
export async function bundleServer(outfile) {
  const result = await build({
    entryPoints: [join(here, "sea", "entry.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    // Only for --simulate, which a Windows node does not use; its absence is reported at start.
    external: ["@csi-proxy/winsim"],
    plugins: [seaPlugin],
    metafile: true,
    logLevel: "silent",
    legalComments: "none",
  });
  if (result.warnings.length > 0)
    throw new Error(
      `esbuild warned:\n${result.warnings.map((w) => `${w.location?.file ?? ""}: ${w.text}`).join("\n")}`,
    );
  return result.metafile;
}

function filesUnder(dir, prefix) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    const name = `${prefix}/${entry}`;
    return statSync(path).isDirectory() ? filesUnder(path, name) : [{ name, path }];
  });
}

/** The files the executable writes beside itself: name (as in the package) and source path. */
export function runtimeFiles(koffiNode) {
  return [
    { name: "package.json", path: join(serverDir, "package.json") },
    ...filesUnder(join(serverDir, "proto"), "proto"),
    ...filesUnder(join(serverDir, "schema"), "schema"),
    { name: "koffi.node", path: koffiNode },
  ];
}
