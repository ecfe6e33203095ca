// The server shares a pool of PowerShell processes between all calls and adds no queue of its
// own (issue #24 item 6): while one call is held inside its cmdlet, another endpoint's call is
// answered. With `--powershell-pool 1` the second call waits behind the first, which is what the
// pool size is for. The hold is a winsim gate (released by the test), not a timing guess.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { scenarios, Simulator } from "@csi-proxy/winsim";
import { afterEach, expect, it } from "vitest";
import { startServer } from "../src/server.js";
import { startOnScenario, type RunningBin } from "./harness.js";

const OK = 0;
const DEADLINE_EXCEEDED = 4;

describeWithPwsh("the server's PowerShell pool", (pwsh) => {
  let bin: RunningBin | undefined;

  afterEach(async () => {
    await bin?.stop();
    bin = undefined;
  });

  async function holdGetService(pool: string) {
    ({ bin } = await startOnScenario(pwsh, scenarios.demoNode(), "v1-compatible", [
      "--powershell-pool",
      pool,
    ]));
    const system = bin.client("system-v1alpha1");
    const sim = await Simulator.open(bin.ready.simulator.dir);
    const gate = sim.block({ command: "Get-Service" });
    const held = system.call("GetService", { name: "MSiSCSI" });
    await gate.met();
    return { system, gate, held };
  }

  it("answers another call while one is held in its cmdlet (--powershell-pool 2)", async () => {
    const { system, gate, held } = await holdGetService("2");
    let heldDone = false;
    void held.then(() => (heldDone = true));
    const bios = await system.call("GetBIOSSerialNumber", {}, { timeoutMs: 120_000 });
    expect(bios.code, bios.details).toBe(OK);
    expect(heldDone).toBe(false);
    gate.release();
    expect((await held).code).toBe(OK);
  });

  it("with a pool of one, the second call waits for the first (the pool is the only queue)", async () => {
    const { system, gate, held } = await holdGetService("1");
    const bios = await system.call("GetBIOSSerialNumber", {}, { timeoutMs: 3_000 });
    expect(bios.code).toBe(DEADLINE_EXCEEDED);
    gate.release();
    expect((await held).code).toBe(OK);
  });

  it("startServer refuses a pool outside 1 to 64 with INVALID_ARGUMENT (the exec core's check)", async () => {
    process.env.CSI_WINSIM_PWSH = pwsh;
    const socketDir = join(mkdtempSync(join(tmpdir(), "csi-pool-")), "s");
    for (const powershellPool of [0, 65, 2.5])
      await expect(
        startServer({ simulate: true, socketDir, policy: "v1-compatible", powershellPool }),
      ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
