// One driver's flood never starves another's calls (issue #37's review): driver A holds as many
// PowerShell processes as it may with slow calls (held in their cmdlet by a winsim gate), and
// sends a hundred calls the policy refuses, by method and by disk; driver B's call on its own
// endpoint set is answered while all of A's slow calls are still held. Before, the pool was one
// FIFO for everyone and B's call waited behind A's; then the ownership listing A's disk refusals
// need ran in a lane of its own and took the one process A's cap leaves B. It runs in A's lane.
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { scenarios, Simulator } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startOnScenario, type RunningBin } from "./harness.js";

const OK = 0;
const PERMISSION_DENIED = 7;

const policy = {
  version: 1,
  rules: [
    {
      name: "driver-a",
      callers: [{ endpointSet: "a" }],
      methods: ["system.GetService", "disk.*"],
      services: ["MSiSCSI"],
      disks: { page83: ["6001405aaaa*"] },
    },
    { name: "driver-b", callers: [{ endpointSet: "b" }], methods: ["system.GetBIOSSerialNumber"] },
  ],
};

describeWithPwsh("fair turns in the shared PowerShell pool", (pwsh) => {
  let bin: RunningBin;
  let sim: Simulator;

  beforeAll(async () => {
    ({ bin } = await startOnScenario(pwsh, scenarios.demoNode(), policy, [
      "--endpoint-set",
      "a",
      "--endpoint-set",
      "b",
      "--powershell-pool",
      "4",
      "--metrics-bind-address",
      "127.0.0.1:0",
    ]));
    sim = await Simulator.open(bin.ready.simulator.dir);
  });

  afterAll(async () => {
    expect(await bin.stop()).toBe(0);
  });

  const queued = async () => {
    const text = await (await fetch(`http://${bin.ready.metricsAddress ?? ""}/metrics`)).text();
    const line = text
      .split("\n")
      .find((l) => l.startsWith("csi_proxy_server_powershell_queued_calls "));
    return Number(line?.split(" ")[1]);
  };

  it("answers B while A's slow calls hold every process A may take and A's refused calls and their listing pile up", async () => {
    const system = (set: string) => bin.client(`${set}/system-v1alpha1`);
    const gate = sim.block({ command: "Get-Service", times: -1 });
    let released = false;
    const slow = Array.from({ length: 6 }, () =>
      system("a")
        .call("GetService", { name: "MSiSCSI" }, { timeoutMs: 300_000 })
        .then((reply) => ({ code: reply.code, released })),
    );
    await gate.met();
    // The ownership listing A's disk refusals need is held in its cmdlet once it runs.
    const listing = sim.block({ command: "Get-Disk", times: -1 });
    const refusedByMethod = Array.from({ length: 50 }, () =>
      system("a").call("StopService", { name: "MSiSCSI" }),
    );
    const refusedByDisk = Array.from({ length: 50 }, () =>
      bin.client("a/disk-v1").call("GetDiskStats", { disk_number: 0 }, { timeoutMs: 300_000 }),
    );
    // The listing has started (held on the process A's cap leaves, as it was before issue #37's
    // fix) or waits in A's own lane for one of A's processes (as it should).
    let running = false;
    void listing.met().then(() => (running = true));
    await expect.poll(async () => running || (await queued()) > 3, { timeout: 60_000 }).toBe(true);
    const b = await system("b").call("GetBIOSSerialNumber", {}, { timeoutMs: 300_000 });
    expect(b.code, b.details).toBe(OK);
    expect(running).toBe(false);
    // Refusals by the policy alone never wait for a process, however busy the pool is.
    expect((await Promise.all(refusedByMethod)).map((r) => r.code)).toEqual(
      Array(50).fill(PERMISSION_DENIED),
    );
    released = true;
    listing.release();
    gate.release();
    // A's disk refusals waited for A's own turn, and shared one listing or two between them.
    expect((await Promise.all(refusedByDisk)).map((r) => r.code)).toEqual(
      Array(50).fill(PERMISSION_DENIED),
    );
    const listings = sim.calls().filter((c) => c.command === "Get-Disk").length;
    expect(listings).toBeLessThan(50);
    // B was answered while every one of A's slow calls was still held.
    expect(await Promise.all(slow)).toEqual(Array(6).fill({ code: OK, released: true }));
  });
});
