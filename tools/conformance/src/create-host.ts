import { provisionPwsh } from "@csi-proxy/pwsh";
import type { ConformanceHost } from "./host.js";
import { selectHost, SelectionError, type Selection } from "./select.js";
import { createSimulatorHost } from "./simulator-host.js";
import { createWindowsHost, windowsHookTimeoutMs } from "./windows-host.js";

/** The host the environment selects: the simulator unless CSI_CONFORMANCE_HOST=windows. */
export async function createHost(selection: Selection = selectHost()): Promise<ConformanceHost> {
  if (selection.kind === "windows") return createWindowsHost(selection);
  const executable = selection.executable ?? provisionPwsh({ quiet: true });
  if (executable === undefined)
    throw new SelectionError("The simulator needs PowerShell 7: run `pnpm setup:pwsh` first.");
  return createSimulatorHost(executable);
}

/**
 * The timeout the suite's beforeAll/afterAll pass to vitest for this host: the Windows fixture's
 * own bound ({@link windowsHookTimeoutMs}); undefined keeps the config's hookTimeout (simulator).
 */
export function hostHookTimeoutMs(selection: Selection): number | undefined {
  return selection.kind === "windows" ? windowsHookTimeoutMs : undefined;
}
