// Fairness between endpoint sets (issue #37): driver B's call on its own set, timed alone and
// while driver A floods the server with slow calls (each held 2 s in its cmdlet by a winsim delay
// fault) and calls the policy refuses by disk, every one sent again as soon as it returns. The
// row is B's median latency during the flood against alone, on one server, the default pool.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scenarios, Simulator } from "@csi-proxy/winsim";
import { V1Client } from "./rpc.js";
import { startServerBin } from "./server-bin.js";
import { summarise } from "./stats.js";

/** B's latency alone and while A floods. */
export interface FairnessRow {
  readonly aloneMs: number;
  readonly floodMs: number;
  /** B's calls timed each way. */
  readonly samples: number;
  /** A's calls kept in flight: slow ones and refused ones. */
  readonly slowInFlight: number;
  readonly refusedInFlight: number;
  /** How long each of A's slow calls is held in its cmdlet. */
  readonly slowMs: number;
}

const samples = 40;
const slowInFlight = 8;
const refusedInFlight = 100;
const slowMs = 2_000;

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

async function timeB(client: V1Client): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const reply = await client.call("GetBIOSSerialNumber", {});
    if (reply.code !== 0) throw new Error(`B's call failed: ${reply.details}`);
    times.push(performance.now() - started);
  }
  return summarise(times).median;
}

/** Keeps `count` calls in flight until `stop` resolves; resolves when the last has returned. */
async function keep(count: number, call: () => Promise<unknown>, stop: Promise<void>) {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const loop = async () => {
    while (!stopped) await call();
  };
  await Promise.all(Array.from({ length: count }, loop));
}

/** B's GetBIOSSerialNumber alone, then while A keeps slow and refused calls in flight. */
export async function measureFairness(pwsh: string): Promise<FairnessRow> {
  const dir = mkdtempSync(join(tmpdir(), "bench-fair-"));
  writeFileSync(join(dir, "policy.json"), JSON.stringify(policy));
  writeFileSync(join(dir, "scenario.json"), JSON.stringify(scenarios.demoNode()));
  const bin = await startServerBin(pwsh, [
    "--simulate-scenario",
    join(dir, "scenario.json"),
    "--policy",
    join(dir, "policy.json"),
    "--endpoint-set",
    "a",
    "--endpoint-set",
    "b",
    "--socket-dir",
    join(dir, "s"),
    "--audit-log",
    join(dir, "audit.jsonl"),
  ]);
  const endpoint = (key: string) => {
    const socket = bin.endpoints[key];
    if (socket === undefined) throw new Error(`no endpoint ${key}`);
    return socket;
  };
  const b = new V1Client(endpoint("b/system-v1alpha1"), "system", "v1alpha1");
  const aSystem = new V1Client(endpoint("a/system-v1alpha1"), "system", "v1alpha1");
  const aDisk = new V1Client(endpoint("a/disk-v1"), "disk", "v1");
  try {
    const sim = await Simulator.open(bin.simulator.dir);
    // Every pool process runs every cmdlet of the row first: the simulator's cmdlets are
    // PowerShell functions a process compiles on first use (Windows' are compiled CIM cmdlets),
    // and a B call landing on a process that never ran its cmdlet would time that compilation.
    for (let round = 0; round < 30; round++) {
      await Promise.all([
        ...Array.from({ length: 4 }, () => b.call("GetBIOSSerialNumber", {})),
        ...Array.from({ length: 4 }, () => aSystem.call("GetService", { name: "MSiSCSI" })),
        ...Array.from({ length: 4 }, () => aDisk.call("GetDiskStats", { disk_number: 0 })),
      ]);
    }
    const aloneMs = await timeB(b);
    sim.fault({ command: "Get-Service", action: "delay", delayMs: slowMs, times: -1 });
    let stop!: () => void;
    const stopping = new Promise<void>((resolve) => (stop = resolve));
    const flood = Promise.all([
      keep(slowInFlight, () => aSystem.call("GetService", { name: "MSiSCSI" }), stopping),
      keep(refusedInFlight, () => aDisk.call("GetDiskStats", { disk_number: 0 }), stopping),
    ]);
    // Let the flood fill A's share of the pool before B is timed.
    await new Promise((resolve) => setTimeout(resolve, slowMs));
    const floodMs = await timeB(b);
    stop();
    sim.clearFaults();
    await flood;
    return { aloneMs, floodMs, samples, slowInFlight, refusedInFlight, slowMs };
  } finally {
    for (const client of [b, aSystem, aDisk]) client.close();
    await bin.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
