import { inspect } from "node:util";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { failure } from "./helpers.js";
import { address, chapIqn, chapUser, openIqn, san, targetPortal, useSimHost } from "./sim-setup.js";

// Spawn mode starts one process per call (1–3 s each), so this suite stays small.
describeWithPwsh("Iscsi on the simulated host (spawn mode)", (pwsh) => {
  const host = useSimHost(pwsh, "spawn");

  it("connects, finds the LUN disks and disconnects, every call in its own process", async () => {
    const h = host();
    h.reset({ ...san(), portals: [{ address }] });
    await h.iscsi.connectTarget({ targetPortal, iqn: openIqn, authType: "NONE" });
    expect((await h.iscsi.getTargetDisks({ targetPortal, iqn: openIqn })).diskIds).toEqual([1, 2]);
    await h.iscsi.disconnectTarget({ targetPortal, iqn: openIqn });
    expect(h.sim.state().disks.map((d) => d.number)).toEqual([0]);
    const pids = new Set(h.calls().map((c) => c.pid));
    expect(pids.size).toBeGreaterThanOrEqual(3);
  });

  it("maps a CHAP failure to PERMISSION_DENIED without the secret in the error or the log", async () => {
    const h = host();
    h.reset({ ...san(), portals: [{ address }] });
    const secret = "spawned-wrong1";
    const error = await failure(
      h.iscsi.connectTarget({
        targetPortal,
        iqn: chapIqn,
        authType: "ONE_WAY_CHAP",
        chapUsername: chapUser,
        chapSecret: secret,
      }),
    );
    expect(error).toMatchObject({ code: "PERMISSION_DENIED", reason: "AUTHENTICATION_FAILED" });
    expect(inspect(error, { depth: null })).not.toContain(secret);
    expect(JSON.stringify(h.calls())).not.toContain(secret);
  });
});
