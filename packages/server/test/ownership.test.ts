// Whose disk is whose, from one listing of every session's disks instead of a lookup per target
// (issue #37), where it can go wrong: a session logged out behind the server's back and its number
// taken by another's disk, a LUN moved to another target, a node that restarts under the server,
// targets the server never heard named, another caller naming hundreds of targets, decisions at
// once. Two iSCSI drivers on their own endpoint sets, granted by IQN pattern; changes behind the
// server's back are made through a PowerShell of their own on the simulated host.
import { createPowerShell, type PowerShell } from "@csi-proxy/exec";
import { Iscsi } from "@csi-proxy/iscsi";
import { describeWithPwsh, inBatches } from "@csi-proxy/test-utils";
import { demoNodeWorld, scenarios, Simulator, winsimModulePath } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultMaxFactAgeMs } from "../src/policy/ownership.js";
import { startOnScenario, type RunningBin } from "./harness.js";

const OK = 0;
const PERMISSION_DENIED = 7;
const array = demoNodeWorld.portal.targetAddress;
const portal = { target_address: array, target_port: 3260 };
const targetPortal = { targetAddress: array, targetPort: 3260 };
const iqn = (name: string) => `iqn.2003-01.org.linux-iscsi.array1:${name}`;
type Set_ = "a" | "b";

function scenario(): unknown {
  const spec = scenarios.demoNode();
  const [server] = spec.iscsi?.servers ?? [];
  if (server === undefined) throw new Error("the demo node has no iSCSI array");
  const lun = (n: number) => ({
    size: 1024 ** 3,
    busType: "iSCSI" as const,
    page83: { naa: `6001405cccc00000000000000000000${n}` },
  });
  const targets = ["a-1", "a-2", "b-1", "b-2"].map((name, i) => ({
    iqn: iqn(name),
    luns: [lun(i)],
  }));
  return { ...spec, iscsi: { ...spec.iscsi, servers: [{ ...server, targets }] } };
}

const rule = (set: Set_) => ({
  name: `driver-${set}`,
  callers: [{ endpointSet: set }],
  methods: ["iscsi.*", "disk.*", "volume.*", "system.StartService"],
  iscsiPortals: [array],
  iscsiTargets: [iqn(`${set}-*`)],
  disks: { ofIscsiTargets: true },
  services: ["MSiSCSI"],
});

const bound = () => new Promise((resolve) => setTimeout(resolve, defaultMaxFactAgeMs + 50));

describeWithPwsh("whose disk is whose, when the node changes", (pwsh) => {
  let bin: RunningBin;
  let sim: Simulator;
  let shell: PowerShell;
  let behind: Iscsi;

  const call = (set: Set_, endpoint: string, method: string, request: Record<string, unknown>) =>
    bin.client(`${set}/${endpoint}`).call(method, request);
  async function ok(set: Set_, endpoint: string, method: string, request: Record<string, unknown>) {
    const reply = await call(set, endpoint, method, request);
    expect(reply.code, `${set}: ${method} ${JSON.stringify(request)}: ${reply.details}`).toBe(OK);
    return reply.message ?? {};
  }
  const state = (set: Set_, diskNumber: number) =>
    call(set, "disk-v1", "GetDiskState", { disk_number: diskNumber }).then((r) => r.code);
  const diskOf = async (set: Set_, name: string) => {
    const { diskIDs } = await ok(set, "iscsi-v1alpha2", "GetTargetDisks", {
      target_portal: portal,
      iqn: iqn(name),
    });
    expect(diskIDs).toHaveLength(1);
    return Number((diskIDs as string[])[0]);
  };
  const hostDiskOf = async (name: string) => {
    const { diskIds } = await behind.getTargetDisks({ targetPortal, iqn: iqn(name) });
    expect(diskIds).toHaveLength(1);
    return diskIds[0] as number;
  };
  const connect = (set: Set_, name: string) =>
    ok(set, "iscsi-v1alpha2", "ConnectTarget", {
      target_portal: portal,
      iqn: iqn(name),
      auth_type: "NONE",
    });
  const logoutAll = async () => {
    for (const name of ["a-1", "a-2", "b-1", "b-2"])
      await behind.disconnectTarget({ targetPortal, iqn: iqn(name) });
  };

  beforeAll(async () => {
    ({ bin } = await startOnScenario(
      pwsh,
      scenario(),
      { version: 1, rules: [rule("a"), rule("b")] },
      ["--endpoint-set", "a", "--endpoint-set", "b"],
    ));
    sim = await Simulator.open(bin.ready.simulator.dir);
    shell = createPowerShell({
      executable: pwsh,
      modules: [winsimModulePath],
      env: { CSI_WINSIM_DIR: bin.ready.simulator.dir },
    });
    behind = new Iscsi({ shell });
    await ok("a", "system-v1alpha1", "StartService", { name: "MSiSCSI" });
    await ok("a", "iscsi-v1alpha2", "AddTargetPortal", { target_portal: portal });
  }, 300_000);

  afterAll(async () => {
    await shell.close();
    expect(await bin.stop()).toBe(0);
  });

  it("a session logged out behind the server's back: its number, taken by another's disk, is the other's", async () => {
    await connect("a", "a-1");
    const mine = await diskOf("a", "a-1");
    expect(await state("a", mine)).toBe(OK);
    await behind.disconnectTarget({ targetPortal, iqn: iqn("a-1") });
    await behind.connectTarget({ targetPortal, iqn: iqn("b-1"), authType: "NONE" });
    expect(await hostDiskOf("b-1")).toBe(mine);
    await bound();
    expect(await state("a", mine)).toBe(PERMISSION_DENIED);
    expect(await state("b", mine)).toBe(OK);
    await logoutAll();
  });

  it("another's login through the server takes the number at once: its answer is newer than the old owner's facts", async () => {
    await connect("a", "a-1");
    const mine = await diskOf("a", "a-1");
    expect(await state("a", mine)).toBe(OK);
    await behind.disconnectTarget({ targetPortal, iqn: iqn("a-1") });
    await connect("b", "b-1");
    expect(await diskOf("b", "b-1")).toBe(mine);
    expect(await state("a", mine)).toBe(PERMISSION_DENIED);
    expect(await state("b", mine)).toBe(OK);
    await logoutAll();
  });

  it("a LUN that moves to another target keeps its disk number but not its owner", async () => {
    await connect("a", "a-1");
    await connect("b", "b-1");
    const moved = await diskOf("a", "a-1");
    expect(await state("a", moved)).toBe(OK);
    sim.update((s) => {
      const sessions = s.iscsi?.sessions ?? [];
      const from = sessions.find((x) => x.targetNodeAddress === iqn("a-1"));
      const to = sessions.find((x) => x.targetNodeAddress === iqn("b-1"));
      if (from === undefined || to === undefined) throw new Error("no sessions to move between");
      from.disks = [];
      to.disks = [...to.disks, { lun: 1, diskNumber: moved }];
    });
    await bound();
    expect(await state("a", moved)).toBe(PERMISSION_DENIED);
    expect(await state("b", moved)).toBe(OK);
    // Back where it came from, so the logouts return each LUN's disk to its target.
    sim.update((s) => {
      const sessions = s.iscsi?.sessions ?? [];
      const from = sessions.find((x) => x.targetNodeAddress === iqn("a-1"));
      const to = sessions.find((x) => x.targetNodeAddress === iqn("b-1"));
      if (from !== undefined) from.disks = [{ lun: 0, diskNumber: moved }];
      if (to !== undefined) to.disks = to.disks.filter((d) => d.diskNumber !== moved);
    });
    await logoutAll();
  });

  it("a node that restarts under the server: new sessions, swapped numbers, each disk its owner's again", async () => {
    await connect("a", "a-1");
    await connect("b", "b-1");
    const [a1, b1] = [await diskOf("a", "a-1"), await diskOf("b", "b-1")];
    expect([await state("a", a1), await state("b", b1)]).toEqual([OK, OK]);
    await logoutAll();
    await behind.connectTarget({ targetPortal, iqn: iqn("b-1"), authType: "NONE" });
    await behind.connectTarget({ targetPortal, iqn: iqn("a-1"), authType: "NONE" });
    expect([await hostDiskOf("b-1"), await hostDiskOf("a-1")]).toEqual([a1, b1]);
    await bound();
    // Nobody names a target again: the listing alone says whose each number is now.
    expect(await state("a", a1)).toBe(PERMISSION_DENIED);
    expect(await state("a", b1)).toBe(OK);
    expect(await state("b", a1)).toBe(OK);
    expect(await state("b", b1)).toBe(PERMISSION_DENIED);
    await logoutAll();
  });

  it("a target granted by pattern that no request named (a restart) is found without a hint", async () => {
    await behind.connectTarget({ targetPortal, iqn: iqn("a-2"), authType: "NONE" });
    const disk = await hostDiskOf("a-2");
    expect(await state("a", disk)).toBe(OK);
    expect(await state("b", disk)).toBe(PERMISSION_DENIED);
    await logoutAll();
  });

  it("another caller naming hundreds of targets takes nothing from this one (review finding)", async () => {
    await connect("a", "a-1");
    const mine = await diskOf("a", "a-1");
    const names = await inBatches(260, (i) =>
      call("b", "iscsi-v1alpha2", "GetTargetDisks", { target_portal: portal, iqn: iqn(`b-x${i}`) }),
    );
    expect(names.every((r) => r.status === "fulfilled")).toBe(true);
    await bound();
    expect(await state("a", mine)).toBe(OK);
    await logoutAll();
  }, 600_000);

  it("decisions at once each get their own answer, and share the host's listings", async () => {
    await connect("a", "a-1");
    const mine = await diskOf("a", "a-1");
    await bound();
    sim.clearCalls();
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => state(i % 2 === 0 ? "a" : "b", mine)),
    );
    expect(answers).toEqual(
      Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? OK : PERMISSION_DENIED)),
    );
    const listings = sim.calls().filter((c) => c.command === "Get-CimInstance").length;
    expect(listings).toBeGreaterThan(0);
    expect(listings).toBeLessThan(12);
    await logoutAll();
  });
});
