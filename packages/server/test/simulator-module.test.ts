// `--simulate` without @csi-proxy/winsim (an optional peer) fails with what to install; any other
// failure to load it is passed on as it is. The installed case is tools/consumer's server test.
import { isCsiProxyError } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { loadSimulator, type SimulatorModule } from "../src/simulator-module.js";

// Node's own error for a package that is not installed, made by asking for one that is not.
async function notFound(name: string): Promise<Error> {
  const error = await import(/* @vite-ignore */ name).then(
    () => new Error(`${name} resolved`),
    (e: unknown) => e as Error,
  );
  expect((error as { code?: unknown }).code).toBe("ERR_MODULE_NOT_FOUND");
  return error;
}

describe("loadSimulator", () => {
  it("says what to install when the simulator package is missing", async () => {
    const missing = await notFound("@csi-proxy/winsim-not-installed");
    // The same error as for the real name: only the name differs.
    missing.message = missing.message.replace(
      "@csi-proxy/winsim-not-installed",
      "@csi-proxy/winsim",
    );
    const error = await loadSimulator(() => Promise.reject(missing)).catch((e: unknown) => e);
    expect(isCsiProxyError(error)).toBe(true);
    expect(error).toMatchObject({ code: "FAILED_PRECONDITION", cause: missing });
    expect((error as Error).message).toContain("npm install @csi-proxy/winsim");
  });

  it("passes on a module missing inside the simulator: a broken install, not a missing one", async () => {
    const inner = await notFound("some-dependency-of-winsim");
    await expect(loadSimulator(() => Promise.reject(inner))).rejects.toBe(inner);
  });

  it("loads the installed simulator", async () => {
    const winsim: SimulatorModule = await loadSimulator();
    expect(typeof winsim.Simulator.create).toBe("function");
  });
});
