import { createRequire } from "node:module";
import type * as KoffiModule from "koffi";

/** koffi where its prebuilt binary loads (it only parses declarations here), else undefined. */
export const koffi: typeof KoffiModule | undefined = (() => {
  try {
    return createRequire(import.meta.url)("koffi") as typeof KoffiModule;
  } catch {
    return undefined;
  }
})();
