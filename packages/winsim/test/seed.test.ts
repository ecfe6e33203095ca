import { createPowerShell, ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { describe, expect, it } from "vitest";
import { buildScenario, scenarios, Simulator, type ScenarioSpec } from "../src/index.js";
import { seededGuid } from "../src/seeded-guid.js";

const guids = (spec: ScenarioSpec) => buildScenario(spec, "/r").state.volumes.map((v) => v.guid);

describe("ScenarioSpec.seed", () => {
  it("gives the same volume GUIDs on every build, and others for another seed", () => {
    const spec = { ...scenarios.demoNode(), seed: "ci-1" };
    expect(guids(spec)).toEqual(guids(spec));
    expect(guids({ ...spec, seed: "ci-2" })).not.toEqual(guids(spec));
    expect(guids(scenarios.demoNode())).not.toEqual(guids(scenarios.demoNode()));
  });

  it("seeds the LUNs of iSCSI targets and MBR signatures too", () => {
    const spec = { ...scenarios.demoNode(), seed: "ci-1" };
    const lunVolumes = (s: ScenarioSpec) =>
      buildScenario(s, "/r").state.iscsi?.servers.flatMap((srv) =>
        srv.targets.flatMap((t) => t.luns.flatMap((l) => l.volumes.map((v) => v.guid))),
      );
    const mbr: ScenarioSpec = {
      seed: "m",
      disks: [{ number: 1, partitionStyle: "MBR", partitions: [{}] }],
    };
    expect(lunVolumes(spec)).toEqual(lunVolumes(spec));
    expect(guids(mbr)).toEqual(guids(mbr));
  });

  it("draws version 4 GUIDs from SHA-256 of seed and index", () => {
    expect(seededGuid("ci-1", 0)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(seededGuid("ci-1", 0)).not.toBe(seededGuid("ci-1", 1));
  });
});

const carve = ps("winsim.test.seedCarve")`
  param([uint32]$Number)
  $null = New-Partition -DiskNumber $Number -Size 104857600
`;

describeWithPwsh("New-Partition with a seeded host", (pwsh) => {
  it("draws the next GUID of the scenario's sequence", async () => {
    const spec: ScenarioSpec = { seed: "ci-1", disks: [{ number: 1, partitionStyle: "GPT" }] };
    await using sim = await Simulator.create(spec);
    const seed = sim.state().seed;
    expect(seed?.value).toBe("ci-1");
    const shell = createPowerShell(sim.shellOptions({ executable: pwsh }));
    try {
      await shell.run(carve, { Number: 1 });
      await shell.run(carve, { Number: 1 });
    } finally {
      await shell.close();
    }
    const created = sim.volumesOnDisk(1).map((v) => v.guid);
    const next = seed?.next ?? -1;
    expect(created).toEqual([seededGuid("ci-1", next), seededGuid("ci-1", next + 1)]);
    expect(sim.state().seed).toEqual({ value: "ci-1", next: next + 2 });
  });
});
