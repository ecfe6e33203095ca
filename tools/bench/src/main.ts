// `pnpm bench`: per-call overhead (spawn, session pools, the floor, node-powershell), where a
// call's time goes, pool scaling, typical reads, the demo's full flow, CPU per operation, start-up
// and memory per process, the server, the restage storm, fairness between endpoint sets, round
// trips per operation, written to BENCHMARKS.md.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem, type } from "node:os";
import { fileURLToPath } from "node:url";
import { provisionPwsh } from "@csi-proxy/pwsh";
import { selfCounters } from "./cpu.js";
import { measureCallTime } from "./call-time.js";
import { measureFlow } from "./flow.js";
import { measureLightThroughput } from "./light-throughput.js";
import { measureOverhead, trivialText } from "./overhead.js";
import { createReadHost, measureReads } from "./reads.js";
import { renderReport, type Machine } from "./report.js";
import { measureRoundTrips } from "./round-trips.js";
import { measureMemory, measureStartup } from "./startup.js";
import { measureServer } from "./server.js";
import { measureFairness } from "./fairness.js";
import { measureStorm } from "./storm-bench.js";
import { measureThroughput } from "./throughput.js";

function pwshVersion(pwsh: string): string {
  const script = "$PSVersionTable.PSVersion.ToString()";
  return execFileSync(pwsh, ["-NoLogo", "-NoProfile", "-Command", script], {
    encoding: "utf8",
  }).trim();
}

const log = (message: string) => console.log(`[bench ${new Date().toISOString()}] ${message}`);

const pwsh = provisionPwsh();
if (pwsh === undefined) process.exit(1);
const started = performance.now();
const loadStart = loadavg();

log("per-call overhead: spawn, session pool 1 and 4, node-powershell");
const before = selfCounters();
const overhead = await measureOverhead(pwsh);
const after = selfCounters();

log("where the time of a call goes: the floor and a session, .NET defaults and exec's settings");
const callTime = await measureCallTime(pwsh);

log("pool scaling with CPU-light calls");
const lightThroughput = await measureLightThroughput(pwsh);

log("typical reads and throughput on the simulated host");
const host = await createReadHost(pwsh);
let reads;
let throughput;
let startup;
let memory;
try {
  reads = await measureReads(host);
  throughput = await measureThroughput(host);
  log("start-up, first-call latency and memory per PowerShell process");
  startup = await measureStartup(pwsh, host);
  memory = await measureMemory(pwsh, host);
} finally {
  await host.sim.dispose();
}

log("the demo's full flow, spawn and session");
const flow = await measureFlow(pwsh);

log("the server: a v1 client's call through csi-proxy-server vs the library call");
const server = await measureServer(pwsh);

log(
  "a restage storm: 32 NodeStage sequences serially, then at once, through the server and on the library, as is and at a simulated CIM latency",
);
const storm = await measureStorm(pwsh);

log("fairness: one endpoint set's call alone and while another set floods the server");
const fairness = await measureFairness(pwsh);

log("round trips: scripts and cmdlet calls per method and per CSI operation");
const roundTrips = await measureRoundTrips(pwsh);

const machine: Machine = {
  date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
  cpu: cpus()[0]?.model.trim() ?? "unknown CPU",
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  os: `${type()} ${release()}`,
  node: process.version,
  pwsh: pwshVersion(pwsh),
  loadStart,
  loadEnd: loadavg(),
  wallSeconds: (performance.now() - started) / 1000,
};
const text = renderReport({
  machine,
  trivialScript: trivialText,
  overhead: overhead.rows,
  peerError: overhead.peerError,
  reads,
  flow,
  throughput,
  lightThroughput,
  callTime,
  startup,
  memory,
  server,
  storm,
  fairness,
  roundTrips,
  cpuCheck: {
    resourceUsageSelf: after.resourceUsage - before.resourceUsage,
    cpuUsageSelf: after.cpuUsage - before.cpuUsage,
    reapedChildren: after.reapedChildren - before.reapedChildren,
  },
});
console.log(text);
writeFileSync(fileURLToPath(new URL("../../../BENCHMARKS.md", import.meta.url)), text);
