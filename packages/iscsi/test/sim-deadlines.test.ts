import { describeWithPwsh } from "@csi-proxy/test-utils";
import type { Simulator } from "@csi-proxy/winsim";
import { beforeEach, expect, it } from "vitest";
import type { Iscsi } from "../src/index.js";
import { failure } from "./helpers.js";
import { chapIqn, chapSecret, chapUser, openIqn, targetPortal, useSimHost } from "./sim-setup.js";

// Cancelled while a script runs on the simulated host (real pwsh): the process is ended, the
// shell serves the next call, and a retry reaches the state an uncancelled call reaches.

/** Long enough never to end by itself: the call must be cancelled to get past it. */
const hangMs = 600_000;

/** A persistent, multipath CHAP login: the case where a careless retry would add a second session. */
const login = {
  targetPortal,
  iqn: chapIqn,
  authType: "ONE_WAY_CHAP",
  chapUsername: chapUser,
  chapSecret,
  isPersistent: true,
  isMultipathEnabled: true,
} as const;

/** Resolves once the armed delay fault was met (its call is logged only when it ends). */
async function faultMet(sim: Simulator): Promise<void> {
  while (!sim.faults().every((f) => f.times === 0)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The iSCSI state a test compares, without identifiers that differ from run to run. */
function outcome(sim: Simulator) {
  const iscsi = sim.state().iscsi;
  return {
    portals: (iscsi?.portals ?? []).map((p) => ({
      address: p.address,
      port: p.port,
      discovered: [...p.discovered].sort(),
    })),
    sessions: (iscsi?.sessions ?? []).map((s) => ({
      targetNodeAddress: s.targetNodeAddress,
      authenticationType: s.authenticationType,
      isPersistent: s.isPersistent,
      isMultipathEnabled: s.isMultipathEnabled,
      connections: s.connections.map((c) => `${c.targetAddress}:${c.targetPort}`),
      luns: s.disks.map((d) => d.lun),
    })),
    favorites: (iscsi?.favorites ?? []).map((f) => ({
      targetNodeAddress: f.targetNodeAddress,
      target: `${f.targetAddress}:${f.targetPort}`,
      authenticationType: f.authenticationType,
      chapUsername: f.chapUsername,
      isMultipathEnabled: f.isMultipathEnabled,
    })),
    disks: sim.state().disks.length,
  };
}

/** Resolves once the simulator has logged a finished call of `command`. */
async function logged(sim: Simulator, command: string): Promise<void> {
  while (!sim.calls().some((call) => call.command === command)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeWithPwsh("cancelling Iscsi methods on the simulated host", (pwsh) => {
  const host = useSimHost(pwsh, "session");
  beforeEach(() => host().reset());

  /** The state an uncancelled `work` leaves, from a fresh host; resets again afterwards. */
  async function expected(work: (iscsi: Iscsi) => Promise<unknown>) {
    await work(host().iscsi);
    const state = outcome(host().sim);
    host().reset();
    return state;
  }

  it(
    "connectTarget aborted in Connect-IscsiTarget: ABORTED, the shell serves the next call, a retry logs in once",
    { timeout: 120_000 },
    async () => {
      const want = await expected(async (iscsi) => {
        await iscsi.addTargetPortal({ targetPortal });
        await iscsi.connectTarget(login);
      });
      const { sim, iscsi } = host();
      await iscsi.addTargetPortal({ targetPortal });
      sim.fault({ command: "Connect-IscsiTarget", action: "delay", delayMs: hangMs });
      const controller = new AbortController();
      const cancelled = iscsi.connectTarget(login, { signal: controller.signal });
      await faultMet(sim);
      controller.abort();
      const error = await failure(cancelled);
      expect(error.code).toBe("ABORTED");
      expect(JSON.stringify(error)).not.toContain(chapSecret);
      expect(outcome(sim).sessions).toEqual([]);
      expect(await iscsi.getTargetDisks({ targetPortal, iqn: chapIqn })).toEqual({
        diskIds: [],
        disks: [],
      });

      sim.clearFaults();
      expect(await iscsi.connectTarget(login)).toEqual({});
      expect(outcome(sim)).toEqual(want);
    },
  );

  it(
    "connectTarget cancelled after Windows logged in: a retry reuses that session, no second one (multipath)",
    { timeout: 120_000 },
    async () => {
      const want = await expected(async (iscsi) => {
        await iscsi.addTargetPortal({ targetPortal });
        await iscsi.connectTarget(login);
      });
      const { sim, iscsi } = host();
      await iscsi.addTargetPortal({ targetPortal });
      sim.clearCalls();
      // The login is made (the initiator service did it), then the cmdlet never answers.
      sim.fault({ command: "Connect-IscsiTarget", action: "hangAfter", delayMs: hangMs });
      const controller = new AbortController();
      const cancelled = iscsi.connectTarget(login, { signal: controller.signal });
      await logged(sim, "Connect-IscsiTarget");
      controller.abort();
      expect((await failure(cancelled)).code).toBe("ABORTED");
      expect(outcome(sim).sessions).toHaveLength(1);

      sim.clearFaults();
      sim.clearCalls();
      expect(await iscsi.connectTarget(login)).toEqual({});
      expect(host().commands()).not.toContain("Connect-IscsiTarget");
      expect(outcome(sim)).toEqual(want);
    },
  );

  it(
    "disconnectTarget aborted in Disconnect-IscsiTarget (already unregistered): a retry logs out",
    { timeout: 120_000 },
    async () => {
      const connect = async (iscsi: Iscsi) => {
        await iscsi.addTargetPortal({ targetPortal });
        await iscsi.connectTarget(login);
      };
      const want = await expected(async (iscsi) => {
        await connect(iscsi);
        await iscsi.disconnectTarget({ targetPortal, iqn: chapIqn });
      });
      const { sim, iscsi } = host();
      await connect(iscsi);
      sim.clearCalls();
      sim.fault({ command: "Disconnect-IscsiTarget", action: "delay", delayMs: hangMs });
      const controller = new AbortController();
      const cancelled = iscsi.disconnectTarget(
        { targetPortal, iqn: chapIqn },
        { signal: controller.signal },
      );
      await faultMet(sim);
      controller.abort();
      expect((await failure(cancelled)).code).toBe("ABORTED");
      // The persistent login was removed first; the session is still logged in.
      expect(outcome(sim)).toMatchObject({ favorites: [], sessions: [{ isPersistent: false }] });

      sim.clearFaults();
      expect(await iscsi.disconnectTarget({ targetPortal, iqn: chapIqn })).toEqual({
        sessionsLoggedOut: 1,
      });
      expect(outcome(sim)).toEqual(want);
    },
  );

  it(
    "addTargetPortal past its deadline in New-IscsiTargetPortal: TIMEOUT, then a retry registers it once",
    { timeout: 120_000 },
    async () => {
      const want = await expected((iscsi) => iscsi.addTargetPortal({ targetPortal }));
      const { sim, iscsi } = host();
      sim.fault({ command: "New-IscsiTargetPortal", action: "delay", delayMs: hangMs });
      // Fires wherever the call is by then (even before the cmdlet, on a loaded machine).
      const error = await failure(iscsi.addTargetPortal({ targetPortal }, { timeoutMs: 3_000 }));
      expect(error.code).toBe("TIMEOUT");
      expect(outcome(sim).portals).toEqual([]);

      sim.clearFaults();
      expect(await iscsi.addTargetPortal({ targetPortal })).toEqual({});
      expect(outcome(sim)).toEqual(want);
      expect(await iscsi.discoverTargetPortal({ targetPortal })).toMatchObject({
        iqns: expect.arrayContaining([openIqn, chapIqn]) as unknown,
      });
    },
  );
});
