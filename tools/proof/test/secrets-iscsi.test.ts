import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createPowerShell, type PowerShell } from "@csi-proxy/exec";
import { Iscsi, type ConnectTargetRequest } from "@csi-proxy/iscsi";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Simulator } from "@csi-proxy/winsim";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { errorOf, expectNoSecret, useEventLog, visible } from "./leak-watch.js";

const address = "10.0.0.5";
const targetPortal = { targetAddress: address };
const iqn = "iqn.2003-01.org.linux-iscsi.array:chap";
const chapUsername = "node-7";
// CHAP secrets are 12–16 bytes; these two are distinctive enough that any match is a leak.
const secret = "ch'$(id)`;9fQz";
const mutual = "mu\u2019$(x);|7Kq";

describeWithPwsh("secrets: CHAP secrets never show, on success or any failure", (pwsh) => {
  const events = useEventLog();
  let sim: Simulator;
  let shell: PowerShell;
  let impatient: PowerShell;
  let iscsi: Iscsi;
  const seen: unknown[] = [];

  beforeAll(async () => {
    sim = await Simulator.create({
      iscsi: {
        servers: [
          {
            address,
            targets: [
              {
                iqn,
                chap: { username: chapUsername, secret },
                mutualChapSecret: mutual,
                luns: [{ size: 1024 ** 3 }],
              },
            ],
          },
        ],
        portals: [{ address }],
      },
    });
    shell = createPowerShell(sim.shellOptions({ executable: pwsh }));
    impatient = createPowerShell(sim.shellOptions({ executable: pwsh, timeoutMs: 1_500 }));
    iscsi = new Iscsi({ shell });
  });

  afterEach(async () => {
    sim.clearFaults();
    await iscsi.disconnectTarget({ targetPortal, iqn });
  });

  afterAll(async () => {
    await shell.close();
    await impatient.close();
    await sim.dispose();
  });

  const request: ConnectTargetRequest = {
    targetPortal,
    iqn,
    authType: "ONE_WAY_CHAP",
    chapUsername,
    chapSecret: secret,
  };

  it("success: mutual secret set, logged in (also persistently), disks listed", async () => {
    await iscsi.setMutualChapSecret({ mutualChapSecret: mutual });
    await iscsi.connectTarget({ ...request, authType: "MUTUAL_CHAP", isPersistent: true });
    seen.push(await iscsi.getTargetDisks({ targetPortal, iqn }));
  });

  it("validation errors", async () => {
    seen.push(await errorOf(iscsi.connectTarget({ ...request, iqn: "not an iqn" })));
    seen.push(await errorOf(iscsi.connectTarget({ ...request, chapSecret: `${secret}\u0000` })));
    seen.push(
      await errorOf(iscsi.connectTarget({ ...request, targetPortal: { targetAddress: "a b" } })),
    );
  });

  it("wrong secrets", async () => {
    seen.push(
      await errorOf(iscsi.connectTarget({ ...request, chapSecret: `${secret.slice(0, -1)}X` })),
    );
    seen.push(await errorOf(iscsi.connectTarget({ ...request, chapSecret: `${secret}${secret}` })));
    seen.push(await errorOf(iscsi.setMutualChapSecret({ mutualChapSecret: `${mutual}${mutual}` })));
  });

  it("an error whose message echoes the secrets", async () => {
    sim.fault({
      command: "Connect-IscsiTarget",
      action: "error",
      error: {
        message: `Authentication failure: ${chapUsername}/${secret}`,
        errorId: "iScsiDiscovery 0xefff0009",
      },
    });
    seen.push(await errorOf(iscsi.connectTarget(request)));
    sim.fault({
      command: "Set-IscsiChapSecret",
      action: "error",
      error: { message: `Rejected ${mutual}`, errorId: "iScsiDiscovery 0xefff004a" },
    });
    seen.push(await errorOf(iscsi.setMutualChapSecret({ mutualChapSecret: mutual })));
  });

  it("the process killed mid-call", async () => {
    sim.fault({ command: "Connect-IscsiTarget", action: "kill" });
    const error = await errorOf(iscsi.connectTarget(request));
    expect((error as { code?: string }).code).toBe("PROCESS_EXITED");
    seen.push(error);
  });

  it("a timeout", async () => {
    sim.fault({ command: "Connect-IscsiTarget", action: "delay", delayMs: 10_000 });
    const error = await errorOf(new Iscsi({ shell: impatient }).connectTarget(request));
    expect((error as { code?: string }).code).toBe("TIMEOUT");
    seen.push(error);
  });

  it("no error, diagnostics event or call log holds them; state keeps only the host's copy", () => {
    expect(seen.length).toBeGreaterThanOrEqual(10);
    expect(events().length).toBeGreaterThan(0);
    for (const value of [secret, mutual]) {
      for (const [index, item] of seen.entries())
        expectNoSecret(visible(item), value, `error ${index}`);
      expectNoSecret(visible(events()), value, "a diagnostics event");
      expectNoSecret(readFileSync(join(sim.dir, "calls.jsonl"), "utf8"), value, "calls.jsonl");
      const { sessions, favorites, portals } = sim.state().iscsi ?? {};
      expectNoSecret(
        JSON.stringify({ sessions, favorites, portals }),
        value,
        "state.json sessions",
      );
    }
  });
});
