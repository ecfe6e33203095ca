import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Disk } from "@csi-proxy/disk";
import { createPowerShell, type PowerShell } from "@csi-proxy/exec";
import { Iscsi } from "@csi-proxy/iscsi";
import { createNodeSmbLinkHost, Smb } from "@csi-proxy/smb";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Volume, volumeScripts } from "@csi-proxy/volume";
import { Simulator, translateUncLinks } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  comparable,
  concurrencyScenario,
  operations,
  overlaps,
  volumeDisks,
  type Groups,
  type Operation,
} from "./concurrency-ops.js";
import { outcome } from "./proof-host.js";

const count = 200;
const seed = 20_26;

/** A simulated host with a pool of 4 and one instance of each group. */
interface Node {
  readonly sim: Simulator;
  readonly shell: PowerShell;
  readonly groups: Groups;
  readonly ops: Operation[];
  readonly diskOfVolume: Map<string, number>;
}

async function createNode(pwsh: string): Promise<Node> {
  const sim = await Simulator.create(concurrencyScenario);
  const shell = createPowerShell(sim.shellOptions({ executable: pwsh, poolSize: 4 }));
  const volumeIds = new Map<number, string>();
  const diskOfVolume = new Map<string, number>();
  for (const disk of volumeDisks) {
    const guid = sim
      .state()
      .partitions.find((p) => p.diskNumber === disk && p.volume !== null)?.volume;
    const id = `\\\\?\\Volume{${guid ?? ""}}\\`;
    volumeIds.set(disk, id);
    diskOfVolume.set(id.toLowerCase(), disk);
  }
  const mountDir = (disk: number, slot: string): string => join(sim.root, "mnt", `d${disk}${slot}`);
  for (const disk of volumeDisks)
    for (const slot of ["a", "b"]) mkdirSync(mountDir(disk, slot), { recursive: true });
  const groups = {
    disk: new Disk({ shell }),
    volume: new Volume({ shell, pathStyle: "posix" }),
    smb: new Smb({
      shell,
      links: translateUncLinks(sim, createNodeSmbLinkHost()),
      pathStyle: "posix",
    }),
    iscsi: new Iscsi({ shell }),
  };
  return { sim, shell, groups, ops: operations(count, seed, volumeIds, mountDir), diskOfVolume };
}

describeWithPwsh("concurrency: hundreds of mixed operations on a pool of 4", (pwsh) => {
  let serial: Node;
  let parallel: Node;
  let serialResults: string[];
  let parallelResults: string[];

  beforeAll(async () => {
    [serial, parallel] = await Promise.all([createNode(pwsh), createNode(pwsh)]);
    const settle = async (node: Node, op: Operation): Promise<string> => {
      try {
        return JSON.stringify(await op.run(node.groups));
      } catch (error) {
        return `error ${(error as { code?: string }).code ?? String(error)}`;
      }
    };
    serialResults = [];
    for (const op of serial.ops) serialResults.push(await settle(serial, op));
    // Every cmdlet call lingers outside the simulator's lock, so unlocked work would overlap.
    parallel.sim.fault({ command: "*", action: "delay", delayMs: 15, times: -1 });
    parallelResults = await Promise.all(parallel.ops.map((op) => settle(parallel, op)));
    parallel.sim.clearFaults();
  });

  afterAll(async () => {
    for (const node of [serial, parallel]) {
      await node.shell.close();
      await node.sim.dispose();
    }
  });

  it("the mix holds every kind of operation", () => {
    const kinds = new Set(serial.ops.map((op) => op.label.split(" ")[0]));
    expect([...kinds].sort()).toEqual(
      ["connect", "disconnect", "format", "map", "mount", "offline", "online", "state"]
        .concat(["stats", "unmap", "unmount"])
        .sort(),
    );
  });

  it("every operation gives the result it gives in a serial run", () => {
    expect(parallelResults.filter((r) => r.startsWith("error untyped"))).toEqual([]);
    const labelled = (results: string[]) =>
      results.map((r, i) => `${serial.ops[i]?.label ?? ""}: ${r}`);
    expect(labelled(parallelResults)).toEqual(labelled(serialResults));
  });

  it("the final state is exactly the serial run's", () => {
    expect(comparable(parallel.sim.state(), parallel.sim.root)).toEqual(
      comparable(serial.sim.state(), serial.sim.root),
    );
  });

  it("calls on one resource never overlap, while the pool does run calls at once", () => {
    const calls = parallel.sim.calls();
    expect(overlaps(calls, parallel.diskOfVolume)).toEqual([]);
    expect(new Set(calls.map((c) => c.pid)).size).toBe(4);
  });

  it("the overlap check does fail when calls on one volume bypass the group's lock", async () => {
    const { sim, shell, diskOfVolume } = parallel;
    const volumeId = [...diskOfVolume.keys()][0] ?? "";
    sim.clearCalls();
    sim.fault({ command: "*", action: "delay", delayMs: 50, times: -1 });
    // The group's script straight on the shell: nothing keeps these calls apart.
    const unlocked = Array.from({ length: 8 }, () =>
      outcome(shell.run(volumeScripts.getVolume, { VolumeId: volumeId })),
    );
    await Promise.all(unlocked);
    sim.clearFaults();
    expect(overlaps(sim.calls(), diskOfVolume).length).toBeGreaterThan(0);
  });
});
