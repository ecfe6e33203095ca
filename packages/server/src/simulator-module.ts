import { CsiProxyError } from "@csi-proxy/exec";
import type * as Winsim from "@csi-proxy/winsim";

/** What `--simulate` needs of `@csi-proxy/winsim`. */
export type SimulatorModule = typeof Winsim;

const simulatorPackage = "@csi-proxy/winsim";

/**
 * Loads the simulator for `--simulate`. It is an optional peer dependency, so a Windows node need
 * not install a Linux simulator and its PowerShell module; asked for without it, the start fails
 * saying what to install rather than with a module resolution trace.
 */
export async function loadSimulator(
  load: () => Promise<SimulatorModule> = () => import("@csi-proxy/winsim"),
): Promise<SimulatorModule> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error)) {
      throw new CsiProxyError(
        `--simulate needs ${simulatorPackage}, which is not installed (an optional peer dependency of @csi-proxy/server, needed only to simulate a node): npm install ${simulatorPackage}`,
        { code: "FAILED_PRECONDITION", cause: error },
      );
    }
    throw error;
  }
}

// Only the simulator itself missing: a module missing inside it is a broken install, said as is.
function isMissing(error: unknown): boolean {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND")
    return false;
  return new RegExp(`'${simulatorPackage}'|"${simulatorPackage}"`).test(error.message);
}
