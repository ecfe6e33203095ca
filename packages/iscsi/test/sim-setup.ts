import { createPowerShell, type ExecMode, type PowerShell } from "@csi-proxy/exec";
import {
  buildIscsiState,
  buildScenario,
  Simulator,
  type CallLogEntry,
  type IscsiSpec,
} from "@csi-proxy/winsim";
import { afterAll, beforeAll } from "vitest";
import { Iscsi } from "../src/index.js";

export const GiB = 1024 ** 3;
export const address = "10.0.0.5";
export const targetPortal = { targetAddress: address, targetPort: 3260 };
export const openIqn = "iqn.2003-01.org.linux-iscsi.array:open";
export const chapIqn = "iqn.2003-01.org.linux-iscsi.array:chap";
export const mutualIqn = "iqn.2003-01.org.linux-iscsi.array:mutual";
export const chapUser = "someuser";
export const chapSecret = "verysecretpass";
/** What the mutual-CHAP target presents: upstream's test sets the reversed secret on the node. */
export const targetSecret = "ssaptercesyrev";

/**
 * A SAN at 10.0.0.5:3260 (upstream's loopback target): an open target with two LUNs, a one-way
 * CHAP target and a mutual-CHAP target with one LUN each. No portal is registered yet.
 */
export function san(extra: Partial<IscsiSpec> = {}): IscsiSpec {
  return {
    servers: [
      {
        address,
        targets: [
          { iqn: openIqn, luns: [{ size: GiB }, { size: 2 * GiB }] },
          { iqn: chapIqn, chap: { username: chapUser, secret: chapSecret }, luns: [{ size: GiB }] },
          {
            iqn: mutualIqn,
            chap: { username: chapUser, secret: chapSecret },
            mutualChapSecret: targetSecret,
            luns: [{ size: GiB }],
          },
        ],
      },
    ],
    ...extra,
  };
}

/** A simulated host with one shell and one Iscsi on it, reset per test with {@link SimHost.reset}. */
export interface SimHost {
  readonly sim: Simulator;
  readonly shell: PowerShell;
  readonly iscsi: Iscsi;
  /** Replaces the storage state with the system disk and the iSCSI state with `spec`; clears calls and faults. */
  reset(spec?: IscsiSpec): void;
  /** The cmdlets called since the last reset. */
  commands(): string[];
  calls(): CallLogEntry[];
}

/** Creates the host once for a describe block (a session process costs about a second). */
export function useSimHost(pwsh: string, mode: ExecMode, poolSize = 1): () => SimHost {
  let host: SimHost | undefined;
  beforeAll(async () => {
    const sim = await Simulator.create({ iscsi: san() });
    const shell = createPowerShell(sim.shellOptions({ executable: pwsh, mode, poolSize }));
    host = {
      sim,
      shell,
      iscsi: new Iscsi({ shell }),
      reset(spec = san()) {
        const storage = buildScenario({}, sim.root).state;
        sim.update((state) => {
          state.disks = storage.disks;
          state.partitions = storage.partitions;
          state.volumes = storage.volumes;
          state.iscsi = buildIscsiState(spec, sim.root);
        });
        sim.clearCalls();
        sim.clearFaults();
      },
      commands: () => sim.calls().map((c) => c.command),
      calls: () => sim.calls(),
    };
  });
  afterAll(async () => {
    await host?.shell.close();
    await host?.sim.dispose();
  });
  return () => {
    if (host === undefined) throw new Error("the simulated host is not ready");
    return host;
  };
}

/** The FullyQualifiedErrorId of a failure's PowerShellError cause. */
export function causeId(error: { cause?: unknown }): string | undefined {
  return (error.cause as { record?: { fullyQualifiedErrorId: string } } | undefined)?.record
    ?.fullyQualifiedErrorId;
}
