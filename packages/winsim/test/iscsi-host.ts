import { createPowerShell, type PowerShell } from "@csi-proxy/exec";
import { afterAll, beforeAll } from "vitest";
import { buildIscsiState, Simulator, type IscsiSpec, type ScenarioSpec } from "../src/index.js";

export const GiB = 1024 ** 3;
export const portalAddress = "10.0.0.5";
export const openIqn = "iqn.2003-01.org.linux-iscsi.target:open";
export const chapIqn = "iqn.2003-01.org.linux-iscsi.target:chap";
export const mutualIqn = "iqn.2003-01.org.linux-iscsi.target:mutual";

/** One server at 10.0.0.5:3260 with an open target (two LUNs), a CHAP target and a mutual-CHAP target. */
export function iscsiScenario(): IscsiSpec {
  return {
    servers: [
      {
        address: portalAddress,
        targets: [
          { iqn: openIqn, luns: [{ size: 2 * GiB }, { size: 3 * GiB }] },
          {
            iqn: chapIqn,
            chap: { username: "someuser", secret: "verysecretpass" },
            luns: [{ size: GiB }],
          },
          {
            iqn: mutualIqn,
            chap: { username: "someuser", secret: "verysecretpass" },
            mutualChapSecret: "ssaptercesyrev",
            luns: [{ size: GiB }],
          },
        ],
      },
    ],
  };
}

export interface IscsiHost {
  sim: Simulator;
  shell: PowerShell;
  /** Puts the iSCSI and storage state back to the scenario's, drops any System part; clears calls and faults. */
  reset(spec?: IscsiSpec): void;
}

/** One simulated host and one session shell per describe block. */
export function useIscsiHost(pwsh: string, spec: ScenarioSpec = {}): IscsiHost {
  const host = {} as IscsiHost;
  beforeAll(async () => {
    host.sim = await Simulator.create({ ...spec, iscsi: spec.iscsi ?? iscsiScenario() });
    const initial = host.sim.state();
    host.shell = createPowerShell(host.sim.shellOptions({ executable: pwsh }));
    host.reset = (iscsi) => {
      host.sim.update((state) => {
        state.disks = initial.disks;
        state.partitions = initial.partitions;
        state.volumes = initial.volumes;
        // A test may declare the System area (its MSiSCSI service); the next one starts without it.
        delete state.system;
        state.iscsi = buildIscsiState(iscsi ?? spec.iscsi ?? iscsiScenario(), host.sim.root);
      });
      host.sim.clearCalls();
      host.sim.clearFaults();
    };
  });
  afterAll(async () => {
    await host.shell.close();
    await host.sim.dispose();
  });
  return host;
}
