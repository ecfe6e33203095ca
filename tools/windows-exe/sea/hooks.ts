// What the bundled server calls instead of `import.meta.url` and `createRequire(import.meta.url)`,
// which a CommonJS bundle inside an executable does not have (bundle.mjs rewrites those calls).
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** The hooks, on `globalThis.__csiProxySea` inside the executable. */
export interface SeaHooks {
  /** The file URL a module of the package (`dist/proto.js`) would have: under the runtime folder. */
  moduleUrl(path: string): string;
  /** `createRequire` for that module, except that `koffi` is the copy bundled in the executable. */
  require(path: string): (id: string) => unknown;
  /** koffi's Windows binary, loaded from the runtime folder. */
  koffiNative(): unknown;
}

/** The hooks for a runtime folder; `bundledKoffi` loads the koffi bundled in the executable. */
export function seaHooks(root: string, bundledKoffi: () => unknown): SeaHooks {
  return {
    moduleUrl: (path) => pathToFileURL(join(root, path)).href,
    require: (path) => {
      const fromDisk = createRequire(join(root, path));
      return (id): unknown => (id === "koffi" ? bundledKoffi() : (fromDisk(id) as unknown));
    },
    koffiNative: () => {
      const module = { exports: {} };
      process.dlopen(module, join(root, "koffi.node"));
      return module.exports;
    },
  };
}
