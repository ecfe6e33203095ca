#!/usr/bin/env node
// Sums vitest's per-package "Tests" lines from a `pnpm test` log into one closing line, and
// fails when no test ran at all (a green run that tested nothing must not pass for one).
import { readFileSync } from "node:fs";

const log = readFileSync(process.argv[2] ?? 0, "utf8").replace(/\u001b\[[0-9;]*m/g, "");
const totals = { passed: 0, failed: 0, skipped: 0 };
for (const line of log.split("\n")) {
  if (!/^\S*\s*Tests\s{2,}/.test(line.replace(/^[^ ]+:test:\s*/, ""))) continue;
  for (const [, count, kind] of line.matchAll(/(\d+) (passed|failed|skipped)/g))
    totals[kind] += Number(count);
}
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (totals.passed + totals.failed === 0) {
  console.error("No test ran.");
  process.exit(1);
}
