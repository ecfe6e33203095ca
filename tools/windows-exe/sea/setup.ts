// First module of the executable: writes the runtime files beside it (runtime-files.ts) and sets
// the hooks the bundled server calls, before any server module runs.
import { getAsset } from "node:sea";
import { dirname, join } from "node:path";
import { seaHooks } from "./hooks.js";
import { materialize, runtimeFolderName } from "./runtime-files.js";

// esbuild bundles what this require names; it runs only when the server first needs koffi.
declare const require: (id: string) => unknown;

/** The asset that lists every runtime file's name (bundle.mjs writes it). */
export const runtimeFilesAsset = "runtime-files.json";

function runtimeRoot(): string {
  const names = JSON.parse(getAsset(runtimeFilesAsset, "utf8")) as string[];
  const files = names.map((name) => ({ name, data: new Uint8Array(getAsset(name)) }));
  const base = join(dirname(process.execPath), runtimeFolderName);
  try {
    return materialize(base, files);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `csi-proxy-server: cannot write its runtime files (koffi's binary, the protos) to ${base}: ${reason}\n` +
        "Put the executable in a folder the account it runs as may write (SYSTEM, Administrators).\n",
    );
    process.exit(1);
  }
}

Object.defineProperty(globalThis, "__csiProxySea", {
  value: seaHooks(runtimeRoot(), () => require("koffi")),
});
