import { createRequire } from "node:module";
import { CsiProxyError } from "@csi-proxy/exec";
import type * as KoffiModule from "koffi";

/** The koffi module's type. */
export type Koffi = typeof KoffiModule;

/**
 * koffi, the Win32 FFI, loaded on Windows only: `what` says what needs Windows when off it.
 *
 * @throws CsiProxyError UNSUPPORTED off Windows or when koffi cannot load.
 */
export function loadKoffiOnWindows(what: string): Koffi {
  if (process.platform !== "win32") throw new CsiProxyError(what, { code: "UNSUPPORTED" });
  try {
    return createRequire(import.meta.url)("koffi") as Koffi;
  } catch (cause) {
    throw new CsiProxyError("koffi (the Win32 FFI) could not be loaded", {
      code: "UNSUPPORTED",
      cause,
    });
  }
}
