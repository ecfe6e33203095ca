// Disks granted by serial number (issue #34): aws-ebs-csi-driver finds its disk as the one whose
// serial number holds the EBS volume id without its '-' (`vol0a1b...`, NVMe: `vol0a1b..._00000001.`);
// a rule grants those disks by a serial pattern, and another driver's disk stays refused. The
// instance's root EBS volume has a `vol…` serial too: `examples/policies/aws-ebs.json`'s `vol*`
// matches it, and the server leaves the node's boot and system disk out of every id grant.
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { scenarios, systemDiskSpec } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startOnScenario, type RunningBin } from "./harness.js";

const OK = 0;
const PERMISSION_DENIED = 7;
const mine = "vol0a1b2c3d4e5f6a7b8c_00000001.";
const theirs = "vol0ffffffffffffffff_00000001.";

describeWithPwsh("disks granted by serial number", (pwsh) => {
  let bin: RunningBin;

  beforeAll(async () => {
    const spec = scenarios.demoNode();
    const disk = (number: number, serialNumber: string) => ({
      number,
      size: 4 * 1024 ** 3,
      busType: "NVMe" as const,
      serialNumber,
    });
    const scenario = { ...spec, disks: [...(spec.disks ?? []), disk(7, mine), disk(8, theirs)] };
    const policy = {
      version: 1,
      rules: [
        {
          name: "ebs",
          callers: [{ local: true }],
          methods: ["disk.*", "volume.*"],
          disks: { serialNumbers: ["vol0a1b2c3d4e5f6a7b8c*"] },
        },
      ],
    };
    ({ bin } = await startOnScenario(pwsh, scenario, policy));
  });

  afterAll(async () => {
    expect(await bin.stop()).toBe(0);
  });

  it("answers for the disk whose serial matches, and only that one", async () => {
    const listed = await bin.client("disk-v1").call("ListDiskIDs", {});
    expect(listed.code, listed.details).toBe(OK);
    const disks = (listed.message as { diskIDs?: Record<string, { serial_number: string }> })
      .diskIDs;
    expect(Object.keys(disks ?? {})).toEqual(["7"]);
    expect(disks?.["7"]?.serial_number).toBe(mine);
    const stats = await bin.client("disk-v1").call("GetDiskStats", { disk_number: 7 });
    expect(stats.code, stats.details).toBe(OK);
    const refused = await bin.client("disk-v1").call("GetDiskStats", { disk_number: 8 });
    expect(refused.code).toBe(PERMISSION_DENIED);
    expect(refused.details).toContain('no "disks" grant covers disk 8');
  });
});

describeWithPwsh("an id pattern that matches the node's own disk", (pwsh) => {
  let bin: RunningBin;
  const root = "vol0eeeeeeeeeeeeeeee_00000001.";

  beforeAll(async () => {
    const spec = scenarios.demoNode();
    // Disk 0 is the demo node's boot and system disk (C:); on EC2 its serial is the root volume's.
    const data = { number: 7, size: 4 * 1024 ** 3, busType: "NVMe" as const, serialNumber: mine };
    const policy = {
      version: 1,
      rules: [
        {
          name: "ebs",
          callers: [{ local: true }],
          methods: ["disk.*", "volume.*"],
          disks: { serialNumbers: ["vol*"] },
        },
      ],
    };
    const scenario = {
      ...spec,
      systemDisk: { ...systemDiskSpec(), serialNumber: root },
      disks: [...(spec.disks ?? []), data],
    };
    ({ bin } = await startOnScenario(pwsh, scenario, policy));
  });

  afterAll(async () => {
    expect(await bin.stop()).toBe(0);
  });

  it("grants the data disk and never the boot disk or its volumes", async () => {
    const listed = await bin.client("disk-v1").call("ListDiskIDs", {});
    expect(listed.code, listed.details).toBe(OK);
    expect(Object.keys((listed.message as { diskIDs?: object }).diskIDs ?? {})).toEqual(["7"]);
    expect((await bin.client("disk-v1").call("GetDiskStats", { disk_number: 7 })).code).toBe(OK);
    const boot = await bin.client("disk-v1").call("GetDiskStats", { disk_number: 0 });
    expect(boot.code).toBe(PERMISSION_DENIED);
    expect(boot.details).toContain('no "disks" grant covers disk 0');
    const wiped = await bin.client("disk-v1").call("PartitionDisk", { disk_number: 0 });
    expect(wiped.code).toBe(PERMISSION_DENIED);
    const volumes = await bin.client("volume-v1").call("ListVolumesOnDisk", { disk_number: 0 });
    expect(volumes.code).toBe(PERMISSION_DENIED);
  });
});
