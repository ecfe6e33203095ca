import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { descendantMemory } from "@csi-proxy/bench/memory";
import { provisionPwsh } from "@csi-proxy/pwsh";
import { childPids } from "./children.js";
import { renderReport } from "./report.js";
import { judge, type Sample } from "./verdict.js";
import { createWorkload, faultFor, settle, type SoakSettings } from "./workload.js";

const mib = 1024 * 1024;
const sampleCount = 40;

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "20000" },
    out: {
      type: "string",
      default: fileURLToPath(new URL("../../../RELIABILITY.md", import.meta.url)),
    },
  },
});

const settings: SoakSettings = {
  calls: Number(values.calls),
  poolSize: 4,
  batch: 8,
  timeoutMs: 15_000,
};
if (!Number.isSafeInteger(settings.calls) || settings.calls < settings.batch * sampleCount) {
  console.error(`--calls must be an integer of at least ${settings.batch * sampleCount}.`);
  process.exit(2);
}

const pwsh = provisionPwsh({ quiet: true });
if (pwsh === undefined) {
  console.error("soak: PowerShell could not be provisioned.");
  process.exit(2);
}

const workload = await createWorkload(pwsh, settings);
const outcomes = new Map<string, number>();
const faults = new Map<string, number>();
const samples: Sample[] = [];
const every = Math.floor(settings.calls / sampleCount / settings.batch) * settings.batch;
const started = performance.now();
let done = 0;
let failures = 0;
let last = { calls: 0, at: started };

for (let batch = 0; done < settings.calls; batch++) {
  const fault = faultFor(batch, settings);
  if (fault !== undefined) {
    workload.sim.fault(fault);
    faults.set(fault.action, (faults.get(fault.action) ?? 0) + 1);
  }
  const size = Math.min(settings.batch, settings.calls - done);
  const calls = Array.from({ length: size }, (_, i) => (done + i) % workload.calls.length)
    .map((at) => workload.calls[at])
    .filter((call) => call !== undefined);
  const results = await Promise.all(calls.map((call) => settle(call)));
  // A fault no call consumed must not leak into the next batch's count.
  workload.sim.clearFaults();
  for (const code of results) {
    outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
    if (code !== "ok") failures += 1;
  }
  done += size;
  if (done % every === 0 || done === settings.calls) {
    const now = performance.now();
    const memory = process.memoryUsage();
    const pwshRss = descendantMemory().map((m) => m.rssMiB);
    samples.push({
      calls: done,
      seconds: (now - started) / 1000,
      rate: ((done - last.calls) * 1000) / (now - last.at),
      rssMiB: memory.rss / mib,
      heapMiB: memory.heapUsed / mib,
      children: childPids().length,
      failures,
      pwshMiB: pwshRss.length === 0 ? 0 : pwshRss.reduce((a, b) => a + b, 0) / pwshRss.length,
      pwshMaxMiB: Math.max(0, ...pwshRss),
    });
    last = { calls: done, at: now };
    console.log(
      `soak: ${done}/${settings.calls} calls, ${samples.at(-1)?.rate.toFixed(1)} calls/s`,
    );
  }
}

const seconds = (performance.now() - started) / 1000;
await workload.close();
// Killed process trees are reaped asynchronously; give them a moment before counting.
let leftover = childPids().length;
for (let i = 0; i < 50 && leftover > 0; i++) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  leftover = childPids().length;
}
const verdict = judge(samples, settings.poolSize, outcomes.get("untyped") ?? 0, leftover);
writeFileSync(
  values.out,
  renderReport({ settings, samples, outcomes, faults, seconds, leftover, verdict }),
);
console.log(
  `soak: ${verdict.ok ? "flat" : `NOT flat: ${verdict.reasons.join("; ")}`} (${values.out})`,
);
process.exitCode = verdict.ok ? 0 : 1;
